import { posix } from "node:path";
import { code, ident, isCode, join, str, type Code } from "./code.js";
import { template } from "./templates.js";

/**
 * One generated TypeScript module under construction, in the manner of protobuf-es' `GeneratedFile`:
 * code that names another module's export asks the file for it (`file.use(symbol)`), which records
 * the import there and then, so the import block is exactly what the code used. No emitter lists
 * its imports by hand or looks into the text it produced to find them.
 */

/** An export of another module of the output, by that module's path in the output folder. */
export interface ImportSymbol {
  /** The name it is imported as (the namespace's local name for `namespace`). */
  readonly name: string;
  /** The module's path in the output folder, e.g. `runtime/server/dispatch.ts`, `types.ts`. */
  readonly from: string;
  /** `value` and `type` are named imports; `namespace` is `import * as name`. */
  readonly kind: "value" | "type" | "namespace";
  /** For a namespace: only its types are used (`import type * as name`). */
  readonly typeOnly?: boolean;
}

/** The exports of one module of the output, to name as symbols. */
export interface OutputModule {
  readonly path: string;
  value(name: string): ImportSymbol;
  type(name: string): ImportSymbol;
  /** The whole module under a local name; `typeOnly` for `import type * as`. */
  namespace(name: string, typeOnly?: boolean): ImportSymbol;
}

/** A module of the output by its path: `module("runtime/schema/checks.ts")`, `module("types.ts")`. */
export function outputModule(path: string): OutputModule {
  return {
    path,
    value: (name) => ({ name, from: path, kind: "value" }),
    type: (name) => ({ name, from: path, kind: "type" }),
    namespace: (name, typeOnly = false) => ({ name, from: path, kind: "namespace", typeOnly }),
  };
}

/** What a code template may be given: code, and the structure around it. Plain strings are data, not code. */
export type TemplateData =
  | Code
  | boolean
  | number
  | null
  | undefined
  | readonly TemplateData[]
  | { readonly [key: string]: TemplateData };

interface ModuleImports {
  namespace: ImportSymbol | null;
  values: Set<string>;
  types: Set<string>;
}

export class CodeFile {
  private readonly modules = new Map<string, ModuleImports>();

  /**
   * @param path the file's path in the output folder (imports are written relative to it)
   * @param order module paths in the order their imports are printed (the file's layout); modules
   *   not listed follow in the order they were first used
   */
  constructor(
    readonly path: string,
    private readonly order: readonly string[] = [],
  ) {}

  /** The symbol's name as code, its import recorded in this file. */
  use(symbol: ImportSymbol): Code {
    if (symbol.from === this.path) throw new Error(`${this.path} cannot import itself`);
    let imports = this.modules.get(symbol.from);
    if (!imports) {
      imports = { namespace: null, values: new Set(), types: new Set() };
      this.modules.set(symbol.from, imports);
    }
    if (symbol.kind === "namespace") {
      const seen = imports.namespace;
      if (seen && seen.name !== symbol.name)
        throw new Error(`${this.path}: ${symbol.from} imported as ${seen.name} and ${symbol.name}`);
      // Used as a value once, the namespace is a value import.
      imports.namespace = seen && !seen.typeOnly ? seen : symbol;
    } else if (symbol.kind === "value") {
      imports.values.add(symbol.name);
      imports.types.delete(symbol.name);
    } else if (!imports.values.has(symbol.name)) imports.types.add(symbol.name);
    return ident(symbol.name);
  }

  /** The paths of the modules imported so far, in print order. */
  imported(): string[] {
    const listed = this.order.filter((path) => this.modules.has(path));
    return [...listed, ...[...this.modules.keys()].filter((path) => !this.order.includes(path))];
  }

  /** The import declarations of everything used so far. */
  imports(): Code {
    const lines: Code[] = [];
    for (const path of this.imported()) {
      const { namespace, values, types } = this.modules.get(path)!;
      const from = str(this.specifier(path));
      if (namespace) {
        const name = ident(namespace.name);
        lines.push(
          namespace.typeOnly
            ? code`import type * as ${name} from ${from};`
            : code`import * as ${name} from ${from};`,
        );
      }
      if (values.size === 0 && types.size === 0) continue;
      const names = [
        ...[...values].sort().map(ident),
        ...[...types].sort().map((name) => code`type ${ident(name)}`),
      ];
      lines.push(
        values.size === 0
          ? code`import type { ${join([...types].sort().map(ident))} } from ${from};`
          : code`import { ${join(names)} } from ${from};`,
      );
    }
    return join(lines, code`\n`);
  }

  /**
   * Renders a code template (`templates/<name>`) with data, and `imports`, this file's import
   * block. Call it last: the import block is what the code built so far used.
   */
  render(name: string, data: { readonly [key: string]: TemplateData }): string {
    return template(name)({ ...(templateData(data) as object), imports: String(this.imports()) });
  }

  /**
   * The specifier of a module, relative to this file, as a string literal: for a template's
   * re-exports (`export { RpcError } from {{from.jsonrpc}};`), which name the module, not a symbol.
   */
  from(module: OutputModule): Code {
    return str(this.specifier(module.path));
  }

  /** The module specifier of an output path, relative to this file: `./runtime/schema/checks.js`. */
  private specifier(path: string): string {
    const relative = posix.relative(posix.dirname(this.path), path).replace(/\.ts$/, ".js");
    return relative.startsWith(".") ? relative : `./${relative}`;
  }
}

/** Template data with every `Code` as its text; a plain string is refused (it would be spliced unquoted). */
function templateData(value: TemplateData, at = "data"): unknown {
  if (isCode(value)) return String(value);
  if (typeof value === "string")
    throw new Error(`template ${at}: a plain string; build it as code (quoted or checked)`);
  if (Array.isArray(value)) return value.map((v, i) => templateData(v, `${at}[${i}]`));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, templateData(v as TemplateData, `${at}.${k}`)]),
    );
  return value;
}
