import { GeneratorError } from "../errors.js";
import type { ProtocolModel } from "../ir/model.js";
import { ident, join, jsdoc, str } from "./code.js";
import { CodeFile } from "./code-file.js";
import type { GeneratedFile } from "./file.js";

/**
 * The output's two entry points, from the `entry` each target sets on its top-level modules:
 * `index.ts` re-exports everything; `browser.ts` only the modules that reach no `node:` module, so
 * that a bundler targeting browsers or edge runtimes takes it as it is.
 */
export const ENTRY_POINTS = [
  {
    path: "index.ts",
    platforms: ["portable", "node"],
    doc: "Everything this folder offers (Node: the server and the stdio client transport included).",
  },
  {
    path: "browser.ts",
    platforms: ["portable"],
    doc: "What runs in browsers and edge runtimes as well as on Node: types, validators, deprecations and the client (over HTTP).",
  },
] as const;

export function entryFiles(model: ProtocolModel, files: readonly GeneratedFile[]): GeneratedFile[] {
  const exported = files.filter((f) => f.entry !== undefined);
  checkTopLevelNames(model, exported);
  return ENTRY_POINTS.map((entry) => ({
    path: entry.path,
    description: entry.doc,
    content: new CodeFile(entry.path).render("index.ts.hbs", {
      doc: jsdoc([entry.doc]),
      modules: exported
        .filter((f) => (entry.platforms as readonly string[]).includes(f.entry!.platform))
        .map((f) => ({
          path: str(`./${f.path.replace(/\.ts$/, ".js")}`),
          namespace: f.entry!.namespace
            ? {
                name: ident(f.entry!.namespace.name),
                names: join(f.entry!.namespace.names.map(ident)),
              }
            : null,
        })),
    }),
  }));
}

/** A namespace or a name lifted out of it must not take a name the schema's types already export. */
function checkTopLevelNames(model: ProtocolModel, exported: readonly GeneratedFile[]): void {
  const schemaNames = new Set([
    ...model.definitions.map((d) => d.name),
    ...model.constants.map((c) => c.name),
  ]);
  for (const file of exported) {
    const ns = file.entry!.namespace;
    if (!ns) continue;
    const clash = [ns.name, ...ns.names].find((name) => schemaNames.has(name));
    if (clash)
      throw new GeneratorError(
        `the schema defines ${clash}, a name the generated ${file.path} needs at the top level of index.ts`,
        model.source.file,
      );
  }
}
