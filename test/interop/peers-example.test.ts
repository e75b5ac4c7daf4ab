/**
 * The README's dual-era example (examples/dual-era-client.ts), compiled as `npm run build:examples`
 * compiles it, run against a legacy server (server-everything over stdio) and a modern one (the
 * SDK v2 server over stdio) in one process: the same client code settles on each server's era by
 * itself and lists its tools.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { buildFixture } from "../helpers/interop.js";
import { binOf, PEERS_DIR } from "../helpers/peers.js";
import { ROOT } from "../helpers/spec.js";

let built: { fixture: string; remove(): void } | undefined;
beforeAll(() => {
  built = buildFixture();
}, 120_000);
afterAll(() => built?.remove());

it("one client lists the tools of a legacy and a modern server", async () => {
  const example = join(dirname(built!.fixture), "dual-era-client.js");
  const everything = binOf("@modelcontextprotocol/server-everything");
  const sdkV2 = join(PEERS_DIR, "sdk-v2-server.mjs");
  const node = process.execPath;
  const { stdout } = await promisify(execFile)(
    node,
    [example, node, everything, "stdio", "--", node, sdkV2, "--stdio"],
    { cwd: ROOT },
  );
  const lines = stdout.trim().split("\n");
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(/^legacy 2025-11-25: echo, get-annotated-message, /);
  expect(lines[1]).toBe("modern 2026-07-28: add, confirm, summarize, roots");
});
