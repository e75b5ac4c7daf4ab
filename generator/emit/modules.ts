import { outputModule, type ImportSymbol, type OutputModule } from "./code-file.js";
import { RUNTIME_DIR } from "./file.js";

/** A module of the runtime (`templates/runtime/<name>`), where the output holds it. */
export const runtimeModule = (name: string): OutputModule => outputModule(`${RUNTIME_DIR}${name}`);

/**
 * The generated modules other generated files import whole, and the names they go by there:
 * `T` for the schema's types (types only), `V` for its validators. `dir` is the folder of a legacy
 * revision's own pair (`legacy/<revision>/`).
 */
export const typesModule = (dir = ""): ImportSymbol =>
  outputModule(`${dir}types.ts`).namespace("T", true);
export const validatorsModule = (dir = "", name = "V"): ImportSymbol =>
  outputModule(`${dir}validators.ts`).namespace(name);
