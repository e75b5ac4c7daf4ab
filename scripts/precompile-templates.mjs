// Part of `npm run build`, after tsc: precompiles templates/*.hbs into dist/templates.cjs, which a
// generation run uses instead of compiling the templates itself (generator/emit/templates.ts).
import { writeFileSync } from "node:fs";
import { PRECOMPILED_FILE, precompiledModule } from "../dist/generator/emit/templates.js";

writeFileSync(PRECOMPILED_FILE, precompiledModule());
