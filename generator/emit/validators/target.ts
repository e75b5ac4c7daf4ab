import type { Target } from "../file.js";
import type { GeneratedFile } from "../file.js";
import { code, ident, join, key, type Code } from "../code.js";
import { CodeFile } from "../code-file.js";
import { typesModule, validatorsModule } from "../modules.js";
import { RUNTIME } from "../runtime.js";
import { FORMAT_CHECKERS } from "../../ir/formats.js";
import { typeReferences } from "../sharing.js";
import { ValidatorCompiler } from "./compile.js";
import { sharedCheck, sharedValidators } from "./shared.js";

const FORMATS = RUNTIME.formats;

/**
 * `validators.ts`: `isN` and `validateN` for every definition, and `runtime/schema/formats.ts` when
 * used. Given a newer revision's module in the same output (`ctx.newer`), the definitions it
 * validates the same are re-exported from it instead (./shared.ts).
 */
export const validatorsTarget: Target = {
  name: "validators",
  emit({ model, dir = "", newer }) {
    const T = typesModule(dir);
    const file = new CodeFile(`${dir}validators.ts`, [T.from, FORMATS.path]);
    const compiler = new ValidatorCompiler((format) => {
      const checker = FORMAT_CHECKERS[format];
      if (!checker) throw new Error(`no checker for format ${format}`);
      return file.use(FORMATS.value(checker));
    });
    const shared = newer ? sharedValidators(model, newer.model) : new Set<string>();
    const own = model.definitions.filter((d) => !shared.has(d.name));
    for (const definition of own) compiler.addDefinition(definition);
    // A shared validator the checks emitted here call is bound to a check function of this module.
    const from = validatorsModule(newer?.dir).from;
    const imported = (name: string) => file.use({ name, from, kind: "value" });
    const called = new Set(own.flatMap((d) => typeReferences(d.type)));
    const bridges = model.definitions
      .filter((d) => shared.has(d.name) && called.has(d.name))
      .map((d) => sharedCheck(d.name, imported(`is${d.name}`), imported(`validate${d.name}`)));
    const reexports: Code[] = model.definitions
      .filter((d) => shared.has(d.name))
      .flatMap((d) => [imported(`is${d.name}`), imported(`validate${d.name}`)]);
    const definitions = own.map((d) => ({
      name: ident(d.name),
      type: code`${file.use(T)}.${ident(d.name)}`,
      check: ValidatorCompiler.checkName(d.name),
      deprecated: d.deprecated !== null,
    }));
    if (bridges.length > 0) compiler.helpers.add("fail");
    const helpers = Object.fromEntries(
      (["fail", "missing", "within", "pointer", "union", "isObject"] as const).map((name) => [
        name,
        compiler.helpers.has(name),
      ]),
    );
    const content = file.render("validators.ts.hbs", {
      functions: [...bridges, ...compiler.functions],
      definitions,
      reexports: reexports.length > 0 ? join(reexports) : null,
      table: model.definitions.map((d) => ({ name: ident(d.name), key: key(d.name) })),
      helpers: { ...helpers, adopt: bridges.length > 0 },
    });
    const files: GeneratedFile[] = [
      {
        path: file.path,
        content,
        entry: { platform: "portable" },
        description:
          "`isN(value)` and `validateN(value)` for every definition `N`, and `validators` by name; errors carry JSON pointers",
      },
    ];
    return files;
  },
};
