/**
 * The dual-era client against the official reference server @modelcontextprotocol/server-memory
 * 2026.8.31 (initialize-era, on the SDK v1) over stdio, its knowledge graph kept in a temporary
 * file: the client falls back to an initialize session on its own, and the graph tools work through
 * the 2026-07-28 typed API (results checked by its validators, structured output compared with the
 * tools' text). A second server process on the same file reads back what the first one wrote.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  binOf,
  expectValid,
  itEndsCleanly,
  openPeer,
  textOf,
  type PeerSession,
} from "../helpers/peers.js";

const MEMORY = binOf("@modelcontextprotocol/server-memory");

let dir: string;
let file: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mcp-gen-peer-memory-"));
  file = join(dir, "memory.jsonl");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const open = () =>
  openPeer({ transport: "stdio", args: [MEMORY], env: { MEMORY_FILE_PATH: file } });

/** Calls a tool, checks its result, and gives its structured content (which its text repeats). */
async function call(
  peer: PeerSession,
  name: string,
  args: Record<string, unknown>,
): Promise<unknown> {
  const result = await peer.client.callTool({ name, arguments: args });
  expectValid("CallToolResult", result);
  expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
  return result.structuredContent;
}

const ADA = { name: "Ada", entityType: "person", observations: ["wrote the first program"] };
const ENGINE = { name: "Engine", entityType: "machine", observations: [] as string[] };
const PROGRAMMED = { from: "Ada", to: "Engine", relationType: "programmed" };

describe("the dual-era client against server-memory over stdio", () => {
  let peer: PeerSession;
  beforeAll(async () => {
    peer = await open();
  });
  afterAll(async () => {
    await peer?.dispose();
  });

  it("opens an initialize session on its own and lists the 9 graph tools", async () => {
    const listed = await peer.client.listTools();
    expectValid("ListToolsResult", listed);
    expect(peer.client.era).toBe("legacy");
    expect(peer.client.protocolVersion).toBe("2025-11-25");
    expect(listed.tools.map((tool) => tool.name)).toEqual([
      "create_entities",
      "create_relations",
      "add_observations",
      "delete_entities",
      "delete_observations",
      "delete_relations",
      "read_graph",
      "search_nodes",
      "open_nodes",
    ]);
  });

  it("builds a graph: entities, a relation, observations", async () => {
    expect(await call(peer, "create_entities", { entities: [ADA, ENGINE] })).toEqual({
      entities: [ADA, ENGINE],
    });
    expect(await call(peer, "create_relations", { relations: [PROGRAMMED] })).toEqual({
      relations: [PROGRAMMED],
    });
    expect(
      await call(peer, "add_observations", {
        observations: [{ entityName: "Engine", contents: ["analytical"] }],
      }),
    ).toEqual({ results: [{ entityName: "Engine", addedObservations: ["analytical"] }] });
    const written = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(written).toEqual([
      { type: "entity", ...ADA },
      { type: "entity", ...ENGINE, observations: ["analytical"] },
      { type: "relation", ...PROGRAMMED },
    ]);
  });

  it("searches, opens and reads the graph", async () => {
    const engine = { ...ENGINE, observations: ["analytical"] };
    expect(await call(peer, "search_nodes", { query: "analytical" })).toEqual({
      entities: [engine],
      relations: [PROGRAMMED],
    });
    expect(await call(peer, "open_nodes", { names: ["Ada"] })).toEqual({
      entities: [ADA],
      relations: [PROGRAMMED],
    });
    expect(await call(peer, "read_graph", {})).toEqual({
      entities: [ADA, engine],
      relations: [PROGRAMMED],
    });
  });

  itEndsCleanly(() => peer);
});

describe("a second server-memory process on the same file", () => {
  it("reads the graph back, and deletes from it", async () => {
    const peer = await open();
    try {
      const engine = { ...ENGINE, observations: ["analytical"] };
      expect(await call(peer, "read_graph", {})).toEqual({
        entities: [ADA, engine],
        relations: [PROGRAMMED],
      });
      await call(peer, "delete_observations", {
        deletions: [{ entityName: "Engine", observations: ["analytical"] }],
      });
      await call(peer, "delete_relations", { relations: [PROGRAMMED] });
      await call(peer, "delete_entities", { entityNames: ["Ada"] });
      expect(await call(peer, "read_graph", {})).toEqual({ entities: [ENGINE], relations: [] });
      await peer.close();
    } finally {
      await peer.dispose();
    }
  });
});
