// `npm run generate -- <mcp-gen options>`: mcp-gen from this checkout. Beside a `../shared` spec copy
// (CI, the team's machines, no route to the upstream host) it reads that copy; anywhere else mcp-gen
// itself downloads the pinned, sha256-verified revision. An MCP_SPEC_DIR of your own wins.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const shared = join(root, "..", "shared", "mcp-spec", "schema");
const args = process.argv.slice(2);
const env = { ...process.env };
if (!env.MCP_SPEC_DIR && !args.includes("--spec-dir") && existsSync(shared))
  env.MCP_SPEC_DIR = shared;
const { main } = await import("../dist/generator/cli/main.js");
process.exitCode = await main(args, { env });
