import { outputModule, type ImportSymbol } from "./code-file.js";

/**
 * The generated modules other generated files import whole, and the names they go by there:
 * `T` for the schema's types (types only), `V` for its validators. `dir` is the folder of a legacy
 * revision's own pair (`legacy/<revision>/`).
 */
export const typesModule = (dir = ""): ImportSymbol =>
  outputModule(`${dir}types.ts`).namespace("T", true);
export const validatorsModule = (dir = "", name = "V"): ImportSymbol =>
  outputModule(`${dir}validators.ts`).namespace(name);
