import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, generatedDir } from "./spec.js";

/** The real legacy peer of the dual-era client tests: the SDK v1 server (`--stdio`, or `--port 0`). */
export const SDK_V1_SERVER = join(ROOT, "test", "helpers", "sdk-v1-server.mjs");

/** What the generated legacy servers answer, for the tests to compare with. */
export const LEGACY_TOOL = { name: "greet", inputSchema: { type: "object" } } as const;
export const LEGACY_RESOURCE = { uri: "test://note", name: "note" } as const;

/**
 * A server generated for an initialize-era revision alone (`generated/<revision>`), bundled by
 * esbuild into a node program of a temporary folder: `--stdio` serves stdin/stdout, `--port 0`
 * Streamable HTTP on 127.0.0.1 (printing "listening on <url>" on stderr). One tool, one resource.
 */
export function legacyServerProgram(revision: string): { entry: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `mcp-gen-legacy-${revision}-`));
  const source = join(dir, "server.ts");
  writeFileSync(
    source,
    `import { createServer } from ${JSON.stringify(join(generatedDir(revision), "server.js"))};
const server = createServer({
  info: { name: "generated-${revision}", version: "1.0.0" },
  capabilities: { tools: {}, resources: {} },
  handlers: {
    "tools/list": () => ({ tools: [${JSON.stringify(LEGACY_TOOL)}] }),
    "tools/call": (params) => ({ content: [{ type: "text", text: "hello from ${revision}: " + params.name }] }),
    "resources/list": () => ({ resources: [${JSON.stringify(LEGACY_RESOURCE)}] }),
    "resources/read": (params) => ({ contents: [{ uri: params.uri, text: "note" }] }),
  },
});
if (process.argv.includes("--stdio")) server.serveStdio();
else {
  const handle = await server.listen({ port: 0 });
  process.stderr.write("listening on " + handle.url + "\\n");
  process.on("SIGTERM", () => void handle.close(0).then(() => process.exit(0)));
}
`,
  );
  const entry = bundleProgram(source, join(dir, "server.mjs"));
  return { entry, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Bundles a test's server program (TypeScript importing a generated folder) into one ESM file for node; `banner` goes first. */
export function bundleProgram(source: string, entry: string, banner?: string): string {
  execFileSync(
    join(ROOT, "node_modules", ".bin", "esbuild"),
    [
      source,
      "--bundle",
      "--platform=node",
      "--format=esm",
      `--outfile=${entry}`,
      "--log-level=warning",
      ...(banner ? [`--banner:js=${banner}`] : []),
    ],
    // A package the program imports (ioredis) is found in mcp-gen's own node_modules.
    { cwd: ROOT, stdio: "pipe", env: { ...process.env, NODE_PATH: join(ROOT, "node_modules") } },
  );
  return entry;
}
