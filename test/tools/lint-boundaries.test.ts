/**
 * The layer boundaries that `npm run lint` enforces (tools/eslint/eslint.config.js): each forbidden
 * import is reported, and the imports each layer really makes are not.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/spec.js";

interface Linter {
  lintText(
    code: string,
    options: { filePath: string },
  ): Promise<Array<{ messages: Array<{ ruleId: string | null; message: string }> }>>;
}

const TOOL = join(ROOT, "tools", "eslint");
let eslint: Linter;

beforeAll(async () => {
  // Installed by `npm run lint`, which `npm test` runs first.
  const api = (await import(
    pathToFileURL(join(TOOL, "node_modules", "eslint", "lib", "api.js")).href
  )) as {
    ESLint: new (options: object) => Linter;
  };
  eslint = new api.ESLint({ cwd: ROOT, overrideConfigFile: join(TOOL, "eslint.config.js") });
});

async function restricted(file: string, specifier: string): Promise<string[]> {
  const [result] = await eslint.lintText(
    `import { x } from "${specifier}";\nexport const y = x;\n`,
    { filePath: join(ROOT, file) },
  );
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("layer boundaries", () => {
  it.each([
    ["generator/emit/types/x.ts", "../../spec/revisions.js"],
    ["generator/emit/x.ts", "../load/index.js"],
    ["generator/ir/x.ts", "../emit/index.js"],
    ["generator/ir/x.ts", "../diff/index.js"],
    ["generator/derive/x.ts", "../emit/file.js"],
    ["generator/load/x.ts", "../spec/resolve.js"],
    ["generator/diff/x.ts", "../load/index.js"],
    ["generator/registry/x.ts", "../cli/main.js"],
    ["generator/spec/x.ts", "../ir/model.js"],
    ["runtime/server/x.ts", "../../generator/ir/model.js"],
    ["runtime/server/x.ts", "ajv"],
    ["runtime/schema/json-schema-ajv.ts", "ajvx"],
    ["runtime/server/x.ts", "../client/core.js"],
    ["runtime/client/x.ts", "../server/dispatch.js"],
    ["runtime/shared/x.ts", "../server/transport.js"],
    ["runtime/schema/x.ts", "../shared/jsonrpc.js"],
  ])("%s may not import %s", async (file, specifier) => {
    expect(await restricted(file, specifier)).toHaveLength(1);
  });

  it.each([
    ["generator/emit/types/x.ts", "../../ir/model.js"],
    ["generator/emit/x.ts", "../package-root.js"],
    ["generator/load/x.ts", "../ir/model.js"],
    ["generator/diff/x.ts", "../registry/index.js"],
    ["generator/derive/x.ts", "../diff/index.js"],
    ["generator/emit/server/x.ts", "../../derive/eras.js"],
    ["generator/cli/x.ts", "../spec/resolve.js"],
    ["runtime/shared/x.ts", "./jsonrpc.js"],
    ["runtime/server/x.ts", "../shared/jsonrpc.js"],
    ["runtime/client/x.ts", "../schema/json-schema.js"],
    ["runtime/auth/x.ts", "../client/http.js"],
    ["runtime/server/x.ts", "node:http"],
    ["runtime/schema/json-schema-ajv.ts", "ajv/dist/2020.js"],
  ])("%s may import %s", async (file, specifier) => {
    expect(await restricted(file, specifier)).toEqual([]);
  });
});
