import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../package-root.js";

/** The generator version stamped into output; package.json is the one place it is set. */
export function generatorVersion(): string {
  const pkg = JSON.parse(readFileSync(join(projectRoot(), "package.json"), "utf8")) as {
    version?: unknown;
  };
  if (typeof pkg.version !== "string") throw new Error("package.json has no version");
  return pkg.version;
}
