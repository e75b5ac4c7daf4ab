/**
 * The dual-era client against the official reference server @modelcontextprotocol/server-filesystem
 * 2026.8.31 (initialize-era, on the SDK v1) over stdio, on a temporary directory: the client falls
 * back to an initialize session on its own, and the server's file tools work through the
 * 2026-07-28 typed API (results checked by its validators, effects checked on disk). A second
 * server started with no directory learns its allowed directory from the client's roots: it asks
 * with a roots/list request on the session, which the client answers through onListRoots.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  binOf,
  expectValid,
  itEndsCleanly,
  openPeer,
  textOf,
  type PeerSession,
} from "../helpers/peers.js";

const FILESYSTEM = binOf("@modelcontextprotocol/server-filesystem");

const TOOLS = [
  "read_file",
  "read_text_file",
  "read_media_file",
  "read_multiple_files",
  "write_file",
  "edit_file",
  "create_directory",
  "list_directory",
  "list_directory_with_sizes",
  "directory_tree",
  "move_file",
  "search_files",
  "get_file_info",
  "list_allowed_directories",
];

let dir: string;
beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "mcp-gen-peer-fs-")));
  writeFileSync(join(dir, "a.txt"), "alpha\nbeta\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the dual-era client against server-filesystem over stdio", () => {
  let peer: PeerSession;
  beforeAll(async () => {
    peer = await openPeer({ transport: "stdio", args: [FILESYSTEM, dir] });
  });
  afterAll(async () => {
    await peer?.dispose();
  });

  /** Calls a tool and checks its result; the text of its content. */
  async function call(name: string, args: Record<string, unknown>): Promise<string> {
    const result = await peer.client.callTool({ name, arguments: args });
    expectValid("CallToolResult", result);
    expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
    expect(result.structuredContent).toEqual({ content: textOf(result) });
    return textOf(result);
  }

  it("opens an initialize session on its own and lists the 14 file tools", async () => {
    const listed = await peer.client.listTools();
    expectValid("ListToolsResult", listed);
    expect(peer.client.era).toBe("legacy");
    expect(peer.client.protocolVersion).toBe("2025-11-25");
    expect(listed.tools.map((tool) => tool.name)).toEqual(TOOLS);
  });

  it("reads, writes and edits files", async () => {
    expect(await call("list_allowed_directories", {})).toBe(`Allowed directories:\n${dir}`);
    expect(await call("read_text_file", { path: join(dir, "a.txt") })).toBe("alpha\nbeta\n");
    await call("write_file", { path: join(dir, "b.txt"), content: "gamma" });
    expect(readFileSync(join(dir, "b.txt"), "utf8")).toBe("gamma");
    const diff = await call("edit_file", {
      path: join(dir, "a.txt"),
      edits: [{ oldText: "beta", newText: "BETA" }],
    });
    expect(diff).toContain("-beta\n+BETA");
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("alpha\nBETA\n");
    const both = await call("read_multiple_files", {
      paths: [join(dir, "a.txt"), join(dir, "b.txt")],
    });
    expect(both).toContain("alpha\nBETA");
    expect(both).toContain("gamma");
  });

  it("creates, lists, searches, describes and moves", async () => {
    await call("create_directory", { path: join(dir, "sub") });
    await call("move_file", { source: join(dir, "b.txt"), destination: join(dir, "sub", "c.txt") });
    expect(readFileSync(join(dir, "sub", "c.txt"), "utf8")).toBe("gamma");
    expect(await call("list_directory", { path: dir })).toBe("[FILE] a.txt\n[DIR] sub");
    expect(await call("search_files", { path: dir, pattern: "**/*.txt" })).toBe(
      [join(dir, "a.txt"), join(dir, "sub", "c.txt")].join("\n"),
    );
    expect(await call("get_file_info", { path: join(dir, "sub", "c.txt") })).toMatch(/^size: 5$/m);
    const tree = JSON.parse(await call("directory_tree", { path: dir })) as unknown;
    expect(tree).toEqual([
      { name: "a.txt", type: "file" },
      { name: "sub", type: "directory", children: [{ name: "c.txt", type: "file" }] },
    ]);
  });

  it("gets a path outside the allowed directory refused as a tool error", async () => {
    const refused = await peer.client.callTool({
      name: "read_text_file",
      arguments: { path: "/etc/hostname" },
    });
    expectValid("CallToolResult", refused);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^Access denied - path outside allowed directories/);
  });

  itEndsCleanly(() => peer);
});

describe("the dual-era client giving server-filesystem its roots", () => {
  it("answers the server's roots/list request through onListRoots", async () => {
    const rooted = realpathSync(mkdtempSync(join(tmpdir(), "mcp-gen-peer-roots-")));
    const peer = await openPeer(
      { transport: "stdio", args: [FILESYSTEM] },
      { onListRoots: () => ({ roots: [{ uri: pathToFileURL(rooted).href, name: "rooted" }] }) },
    );
    try {
      // The server asks for the roots once the session is initialized, in the background.
      let allowed = "";
      for (let tries = 0; tries < 50 && !allowed.includes(rooted); tries++) {
        const result = await peer.client.callTool({
          name: "list_allowed_directories",
          arguments: {},
        });
        expectValid("CallToolResult", result);
        allowed = textOf(result);
        if (!allowed.includes(rooted)) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(allowed).toBe(`Allowed directories:\n${rooted}`);
      expect(peer.logs).toContain(
        "stderr: Updated allowed directories from MCP roots: 1 valid directories",
      );
      await peer.close();
    } finally {
      await peer.dispose();
      rmSync(rooted, { recursive: true, force: true });
    }
  });
});
