/**
 * Output that would not compile is a generation error, not a silent exit 0: two schema messages that
 * would become one member of the generated code are reported, both named, at the second's line.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../../generator/api.js";
import { main } from "../../../generator/cli/main.js";
import { renderRevision } from "../../../generator/emit/index.js";
import { GeneratorError } from "../../../generator/errors.js";
import { GOLDEN_VERSION, loadSchemaText } from "../../helpers/golden.js";
import { emitFacts, schemaFile } from "../../helpers/spec.js";

const BASE = readFileSync(schemaFile("2026-07-28"), "utf8");
const UNION =
  "export type InputRequest =\n  CreateMessageRequest | ListRootsRequest | ElicitRequest;\n";

/** The 2026-07-28 schema with a second sampling-like input request, which the client would handle with the same option. */
function clashing(): string {
  expect(BASE).toContain(UNION);
  const extra =
    'export interface SummarizeRequest extends JSONRPCRequest {\n  method: "sampling/summarize";\n  params: CreateMessageRequestParams;\n}\n';
  return BASE.replace(
    UNION,
    `${UNION.replace("ElicitRequest;", "ElicitRequest | SummarizeRequest;")}\n${extra}`,
  );
}

describe("members the generated code would hold twice", () => {
  it("two input requests the client would handle with one option are refused, naming both", async () => {
    const schema = clashing();
    const model = loadSchemaText(schema, "clash");
    // Methods are in source order: the new request stands first, so the clash is at the old one.
    const line =
      schema.split("\n").findIndex((l) => l.startsWith("export interface CreateMessageRequest ")) +
      1;
    const rendering = renderRevision(model, GOLDEN_VERSION, emitFacts(model));
    await expect(rendering).rejects.toBeInstanceOf(GeneratorError);
    await expect(rendering).rejects.toMatchObject({
      message:
        "`SummarizeRequest` and `CreateMessageRequest` would both be the client option `onSample`",
      line,
    });
  });

  it("the same schema without the clash renders", async () => {
    await expect(
      renderRevision(loadSchemaText(BASE, "no-clash"), GOLDEN_VERSION, { releases: {} }),
    ).resolves.toBeDefined();
  });

  it("the error names the schema's path, as the loader's errors do (not the model's bare schema.ts)", async () => {
    const spec = mkdtempSync(join(tmpdir(), "mcp-gen-clash-spec-"));
    try {
      const file = join(spec, "draft", "schema.ts");
      mkdirSync(join(spec, "draft"));
      const schema = clashing();
      writeFileSync(file, schema);
      const line =
        schema
          .split("\n")
          .findIndex((l) => l.startsWith("export interface CreateMessageRequest ")) + 1;
      const emitting = generate({
        revision: "draft",
        specDir: spec,
        out: join(spec, "out"),
        cwd: spec,
        env: {},
        offline: true,
      });
      await expect(emitting).rejects.toMatchObject({ name: "GeneratorError", file, line });
      const error = await emitting.catch((e: unknown) => e as GeneratorError);
      expect(String(error)).toBe(
        `mcp-gen: ${file}:${line}: \`SummarizeRequest\` and \`CreateMessageRequest\` would both be the client option \`onSample\``,
      );

      // The command line prints the same one line, exit 1; a loader error there names the same path.
      const cli = async (): Promise<{ code: number; stderr: string }> => {
        let stderr = "";
        const code = await main(
          ["--revision", "draft", "--spec-dir", spec, "--out", join(spec, "out"), "--offline"],
          {
            stdout: () => {},
            stderr: (text) => void (stderr += text),
            env: { MCP_GEN_CACHE_DIR: join(spec, "cache") },
            cwd: spec,
          },
        );
        return { code, stderr };
      };
      expect(await cli()).toEqual({ code: 1, stderr: `${String(error)}\n` });
      writeFileSync(file, `${schema}\nexport class Nope {}\n`);
      await expect(
        generate({
          revision: "draft",
          specDir: spec,
          out: join(spec, "out"),
          cwd: spec,
          env: {},
          offline: true,
        }),
      ).rejects.toMatchObject({ file });
      const loaderError = (await cli()).stderr;
      expect(loaderError.startsWith(`mcp-gen: ${file}:`)).toBe(true);
    } finally {
      rmSync(spec, { recursive: true, force: true });
    }
  });
});
