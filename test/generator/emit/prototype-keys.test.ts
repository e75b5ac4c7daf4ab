/**
 * Names are never prototype keys (issue 33): a definition, property or tool named `__proto__` is a
 * key of the generated tables like any other (an object literal's `__proto__: x` would set the
 * prototype instead), an optional property named `constructor` or `toString` is absent when the
 * value does not hold it (not the inherited function), and a lookup of a name that is no
 * definition finds nothing. Generated from small schemas into a temp folder and run; the runtime's
 * lookups of names (prompt arguments, URI template variables) on the generated 2026-07-28 server.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, key } from "../../../generator/emit/code.js";
import { createServer, ServerDefinitions } from "../../../generated/2026-07-28/server.js";
import { UriTemplate } from "../../../runtime/server/uri-template.js";
import { send } from "../../helpers/definitions-fixture.js";
import { INFO, rpc } from "../../helpers/server-fixture.js";
import { runCli } from "../../helpers/cli.js";
import { ROOT } from "../../helpers/spec.js";

const REV = "2099-01-01";
const HOSTILE = `
/** A definition named like the prototype. */
export interface __proto__ {
  a: string;
}

/** Properties named like what every object inherits. */
export interface Odd {
  __proto__?: string;
  constructor?: string;
  toString?: number;
  hasOwnProperty: boolean;
}
`;
const TOOLS = `/**
 * A tool named like the prototype.
 * @tool __proto__
 */
export interface ProtoArguments {
  __proto__?: string;
  constructor?: string;
  toString?: number;
}

/**
 * A tool named like the constructor.
 * @tool constructor
 */
export interface CtorArguments {
  x: string;
}

/** An ordinary tool beside them. */
export interface PlainArguments {
  a?: string;
}
`;

let work: string;
type Validators = Record<string, unknown> & {
  validators: Record<string, ((value: unknown) => { ok: boolean }) | undefined>;
  validateOdd: (value: unknown) => { ok: boolean; errors?: Array<{ path: string }> };
};
let revision: Validators;
let tools: {
  TOOLS: Record<string, { name: string; inputSchema: { properties: object } }>;
  CHECKS: Record<string, { input: (value: unknown) => { ok: boolean } }>;
  defineTool: (name: string, handler: () => object) => { name: string };
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "mcp-gen-proto-"));
  mkdirSync(join(work, "spec", REV), { recursive: true });
  const base = readFileSync(
    join(ROOT, "test", "fixtures", "protocol-surface", "schema.ts"),
    "utf8",
  );
  writeFileSync(join(work, "spec", REV, "schema.ts"), base + HOSTILE);
  writeFileSync(join(work, "tools.ts"), TOOLS);
  const io = { env: { MCP_GEN_CACHE_DIR: join(work, "cache") }, cwd: work };
  const generated = await runCli(["--revision", REV, "--spec-dir", "spec", "--out", "rev"], io);
  expect(generated.code, generated.stderr).toBe(0);
  const toolsRun = await runCli(["tools", "tools.ts", "--out", "tools-out"], io);
  expect(toolsRun.code, toolsRun.stderr).toBe(0);
  revision = (await import(join(work, "rev", "validators.ts"))) as Validators;
  tools = (await import(join(work, "tools-out", "tools.ts"))) as typeof tools;
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("generated revision tables", () => {
  it("a definition named __proto__ is a key of validators, which inherits nothing", () => {
    const { validators } = revision;
    expect(Object.keys(validators)).toContain("__proto__");
    expect(Object.getPrototypeOf(validators)).toBeNull();
    expect(validators["__proto__"]!({ a: "x" }).ok).toBe(true);
    expect(validators["__proto__"]!({}).ok).toBe(false);
    for (const inherited of ["call", "toString", "constructor", "hasOwnProperty"])
      expect(validators[inherited], inherited).toBeUndefined();
  });

  it("optional constructor, toString and __proto__ are absent when not given, checked when given", () => {
    const { validateOdd } = revision;
    expect(validateOdd({ hasOwnProperty: true }).ok).toBe(true);
    expect(validateOdd(JSON.parse('{"hasOwnProperty":true,"__proto__":"x"}')).ok).toBe(true);
    expect(validateOdd(JSON.parse('{"hasOwnProperty":true,"__proto__":1}')).errors).toEqual([
      { path: "/__proto__", message: "must be string" },
    ]);
    expect(validateOdd({ hasOwnProperty: true, constructor: 1 }).ok).toBe(false);
    expect(validateOdd({ hasOwnProperty: true, toString: "x" }).ok).toBe(false);
  });

  it("a required property named like an inherited one is missing when the value lacks it", () => {
    expect(revision.validateOdd({}).errors).toEqual([
      { path: "", message: "must have required property 'hasOwnProperty'" },
    ]);
  });
});

describe("generated tools tables", () => {
  it("tools named __proto__ and constructor are in TOOLS and CHECKS, which keep their prototype", () => {
    expect(Object.keys(tools.TOOLS)).toEqual(["__proto__", "constructor", "plain"]);
    expect(Object.keys(tools.CHECKS)).toEqual(["__proto__", "constructor", "plain"]);
    expect(Object.getPrototypeOf(tools.TOOLS)).toBe(Object.prototype);
    expect(tools.TOOLS["__proto__"]!.name).toBe("__proto__");
    expect(tools.defineTool("__proto__", () => ({})).name).toBe("__proto__");
    expect(tools.defineTool("constructor", () => ({})).name).toBe("constructor");
  });

  it("a property named __proto__ is a key of the listed inputSchema", () => {
    const { properties } = tools.TOOLS["__proto__"]!.inputSchema;
    expect(Object.keys(properties)).toEqual(["__proto__", "constructor", "toString"]);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
  });

  it("a call that omits the optional constructor and toString passes the compiled check", () => {
    const check = tools.CHECKS["__proto__"]!.input;
    expect(check({}).ok).toBe(true);
    expect(check({ toString: "x" }).ok).toBe(false);
    expect(check(JSON.parse('{"__proto__":1}')).ok).toBe(false);
  });
});

describe("the quoting helpers", () => {
  it("json() prints __proto__ keys so that they evaluate to own properties, like JSON.parse", () => {
    const data = JSON.parse(
      '{"__proto__":{"a":1},"list":[{"__proto__":null}],"s":"\\"__proto__\\":\\u2028"}',
    ) as unknown;
    const text = String(json(data));
    expect(text).toContain('["__proto__"]:');
    const evaluated = new Function(`return ${text};`)() as unknown;
    expect(evaluated).toEqual(data);
    expect(Object.keys(evaluated as object)).toEqual(["__proto__", "list", "s"]);
    expect(Object.getPrototypeOf(evaluated)).toBe(Object.prototype);
  });

  it("key() computes __proto__ only; other names bare or quoted as before", () => {
    expect(String(key("__proto__"))).toBe('["__proto__"]');
    expect(String(key("constructor"))).toBe("constructor");
    expect(String(key("a-b"))).toBe('"a-b"');
  });
});

describe("the runtime's lookups of names", () => {
  it("a required prompt argument named constructor is missing when the client did not give it", async () => {
    const definitions = new ServerDefinitions();
    definitions.prompt({
      name: "p",
      arguments: [{ name: "constructor", required: true }],
      get: (args) => ({
        messages: [
          { role: "user", content: { type: "text", text: String(Object.values(args)[0]) } },
        ],
      }),
    });
    const server = createServer({ info: INFO, capabilities: { prompts: {} }, definitions });
    const missing = await send(server, rpc("prompts/get", { name: "p", arguments: {} }));
    expect(missing.error).toMatchObject({ code: -32602 });
    expect(String(missing.error.message)).toContain('"constructor"');
    const given = await send(
      server,
      rpc("prompts/get", { name: "p", arguments: { constructor: "hi" } }),
    );
    expect(given.result.messages[0].content.text).toBe("hi");
  });

  it("URI template variables named __proto__ and constructor are own values", () => {
    const proto = new UriTemplate("x://{__proto__}").match("x://v");
    expect(proto && Object.keys(proto)).toEqual(["__proto__"]);
    expect(proto && Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(proto?.["__proto__"]).toBe("v");
    expect(new UriTemplate("x://a{?constructor}").match("x://a?constructor=c")).toEqual(
      Object.fromEntries([["constructor", "c"]]),
    );
  });

  it("a listing field named __proto__ stays a field of the tool's listing", async () => {
    const definitions = new ServerDefinitions({ log: () => {} });
    definitions.tool(
      JSON.parse('{"name":"t","inputSchema":{"type":"object"},"__proto__":{"polluted":true}}'),
    );
    const server = createServer({ info: INFO, capabilities: { tools: {} }, definitions });
    const listed = (await send(server, rpc("tools/list"))).result.tools[0];
    expect(Object.keys(listed)).toContain("__proto__");
    expect((listed as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
