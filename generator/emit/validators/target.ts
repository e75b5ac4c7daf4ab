import type { Target } from "../file.js";
import type { GeneratedFile } from "../file.js";
import { code, ident, key } from "../code.js";
import { CodeFile } from "../code-file.js";
import { typesModule } from "../modules.js";
import { RUNTIME } from "../runtime.js";
import { FORMAT_CHECKERS } from "../../ir/formats.js";
import { ValidatorCompiler } from "./compile.js";

const FORMATS = RUNTIME.formats;

/** `validators.ts`: `isN` and `validateN` for every definition, and `runtime/schema/formats.ts` when used. */
export const validatorsTarget: Target = {
  name: "validators",
  emit({ model, dir = "" }) {
    const T = typesModule(dir);
    const file = new CodeFile(`${dir}validators.ts`, [T.from, FORMATS.path]);
    const compiler = new ValidatorCompiler((format) => {
      const checker = FORMAT_CHECKERS[format];
      if (!checker) throw new Error(`no checker for format ${format}`);
      return file.use(FORMATS.value(checker));
    });
    for (const definition of model.definitions) compiler.addDefinition(definition);
    const definitions = model.definitions.map((d) => ({
      name: ident(d.name),
      type: code`${file.use(T)}.${ident(d.name)}`,
      key: key(d.name),
      check: ValidatorCompiler.checkName(d.name),
      deprecated: d.deprecated !== null,
    }));
    const helpers = Object.fromEntries(
      (["fail", "missing", "within", "pointer", "union", "isObject"] as const).map((name) => [
        name,
        compiler.helpers.has(name),
      ]),
    );
    const content = file.render("validators.ts.hbs", {
      functions: compiler.functions,
      definitions,
      helpers,
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
