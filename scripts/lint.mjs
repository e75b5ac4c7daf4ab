// `npm run lint`: prettier's check over the project's own code (.prettierignore says what is not
// its own), then ESLint with the layer boundaries of tools/eslint/eslint.config.js. ESLint and typescript-eslint live in tools/eslint (they need
// TypeScript 5's JavaScript API; the project builds with TypeScript 7); installed there on first use.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const TOOL = join(ROOT, "tools", "eslint");
const ESLINT = join(TOOL, "node_modules", "eslint", "bin", "eslint.js");

try {
  execFileSync(
    process.execPath,
    [
      join(ROOT, "node_modules", "prettier", "bin", "prettier.cjs"),
      "--check",
      "--log-level",
      "warn",
      ".",
    ],
    { stdio: "inherit", cwd: ROOT },
  );
} catch {
  console.error("lint: files above are not prettier-formatted; npm run format writes them");
  process.exit(1);
}
if (!existsSync(ESLINT))
  execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--prefix", TOOL], { stdio: "inherit" });
try {
  execFileSync(
    process.execPath,
    [
      ESLINT,
      "--config",
      join(TOOL, "eslint.config.js"),
      "--max-warnings",
      "0",
      ...process.argv.slice(2),
      ROOT,
    ],
    { stdio: "inherit", cwd: ROOT },
  );
} catch (error) {
  process.exit(error.status ?? 1);
}
