/**
 * The option table drives the command line: every entry is an option of its command's --help, a
 * flag's values arrive keyed as the table is, and the regenerate command names the `input` entries,
 * normalized, in table order.
 */
import { describe, expect, it } from "vitest";
import { main } from "../../../generator/cli/main.js";
import {
  DIFF_OPTIONS,
  GENERATE_OPTIONS,
  changedInputs,
  inputsOf,
  regenerateCommand,
  TOOLS_OPTIONS,
  type OptionTable,
} from "../../../generator/cli/options.js";
import { readFlags } from "../../../generator/cli/yargs-options.js";

async function help(args: string[]): Promise<string> {
  const out: string[] = [];
  const code = await main([...args, "--help"], {
    stdout: (t) => out.push(t),
    stderr: () => {},
    env: {},
    cwd: "/",
  });
  expect(code).toBe(0);
  return out.join("");
}

describe("the option table", () => {
  it.each([
    [[], GENERATE_OPTIONS],
    [["tools"], TOOLS_OPTIONS],
    [["diff"], DIFF_OPTIONS],
  ] as Array<[string[], OptionTable]>)(
    "%j --help lists every entry with its description",
    async (args, table) => {
      const text = (await help(args)).replace(/\s+/g, " ");
      for (const spec of Object.values(table)) {
        expect(text, spec.flag).toContain(spec.positional ? spec.flag : `--${spec.flag}`);
        expect(text, spec.flag).toContain(spec.describe.replace(/\s+/g, " ").slice(0, 40));
      }
    },
  );

  it("reads flags by entry: lists de-duplicated and comma-split where the entry says, single values once", () => {
    expect(
      readFlags(
        { revision: ["a", "b", "a"], legacy: ["x,y", "y"], out: "o", auth: true, offline: false },
        GENERATE_OPTIONS,
      ),
    ).toEqual({ revision: ["a", "b"], legacy: ["x", "y"], out: "o", auth: true, offline: false });
    expect(() => readFlags({ out: ["a", "b"] }, GENERATE_OPTIONS)).toThrow(
      "--out may be given only once",
    );
    expect(() => readFlags({ revision: [""] }, GENERATE_OPTIONS)).toThrow(
      "--revision needs a value",
    );
  });

  it("the regenerate command names the input entries in table order, quoted where a shell needs it", () => {
    expect(
      regenerateCommand(["mcp-gen"], GENERATE_OPTIONS, {
        auth: true,
        jsonSchema: "ajv",
        out: "my out",
        legacy: ["2025-11-25", "2025-06-18"],
        revision: ["2026-07-28"],
        specDir: "/not/an/input",
        check: true,
      }),
    ).toBe(
      "mcp-gen --revision 2026-07-28 --legacy 2025-11-25,2025-06-18 --out 'my out' --json-schema ajv --auth",
    );
    expect(regenerateCommand(["mcp-gen", "tools"], TOOLS_OPTIONS, { file: "src/t.ts" })).toBe(
      "mcp-gen tools src/t.ts",
    );
    expect(
      regenerateCommand(["mcp-gen"], GENERATE_OPTIONS, {
        revision: ["r"],
        legacy: [],
        auth: false,
      }),
    ).toBe("mcp-gen --revision r");
  });

  it("reads a regenerate command back into its inputs, and names the ones two commands differ in", () => {
    const values = { revision: ["2026-07-28"], out: "my dir/it's", auth: true, legacy: ["none"] };
    const command = regenerateCommand(["mcp-gen"], GENERATE_OPTIONS, values);
    expect(Object.fromEntries(inputsOf(command, GENERATE_OPTIONS))).toEqual({
      revision: "2026-07-28",
      legacy: "none",
      out: "my dir/it's",
      auth: "on",
    });
    const after = regenerateCommand(["mcp-gen"], GENERATE_OPTIONS, {
      ...values,
      auth: false,
      legacy: ["2025-11-25", "2025-06-18"],
      store: "redis",
    });
    expect(changedInputs(command, after, GENERATE_OPTIONS)).toEqual([
      "--legacy (was none, now 2025-11-25,2025-06-18)",
      "--auth (was on, now off)",
      "--store (was unset, now redis)",
    ]);
    expect(changedInputs(command, command, GENERATE_OPTIONS)).toEqual([]);
    const tools = regenerateCommand(["mcp-gen", "tools"], TOOLS_OPTIONS, { file: "src/tools.ts" });
    expect(changedInputs(tools, `${tools} --out out`, TOOLS_OPTIONS)).toEqual([
      "--out (was unset, now out)",
    ]);
    expect(Object.fromEntries(inputsOf(tools, TOOLS_OPTIONS))).toEqual({ file: "src/tools.ts" });
  });
});
