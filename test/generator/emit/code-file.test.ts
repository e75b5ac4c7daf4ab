import { describe, expect, it } from "vitest";
import { code } from "../../../generator/emit/code.js";
import { CodeFile, outputModule } from "../../../generator/emit/code-file.js";
import { CheckCode } from "../../../generator/emit/checks.js";

const dispatch = outputModule("runtime/dispatch.ts");
const http = outputModule("runtime/http.ts");
const types = outputModule("types.ts");
const validators = outputModule("validators.ts");

describe("CodeFile: imports recorded as they are used", () => {
  it("imports nothing until something is used", () => {
    expect(String(new CodeFile("server.ts").imports())).toBe("");
  });

  it("imports each name used, once, values before types, each sorted", () => {
    const file = new CodeFile("server.ts");
    const used = code`${file.use(dispatch.type("Protocol"))} ${file.use(dispatch.value("Dispatcher"))} ${file.use(dispatch.type("Handler"))} ${file.use(dispatch.value("Dispatcher"))}`;
    expect(String(used)).toBe("Protocol Dispatcher Handler Dispatcher");
    expect(String(file.imports())).toBe(
      'import { Dispatcher, type Handler, type Protocol } from "./runtime/dispatch.js";',
    );
  });

  it("writes a module whose names are all types as `import type`", () => {
    const file = new CodeFile("server.ts");
    file.use(http.type("HttpOptions"));
    file.use(http.type("HeaderRules"));
    expect(String(file.imports())).toBe(
      'import type { HeaderRules, HttpOptions } from "./runtime/http.js";',
    );
  });

  it("makes a name used both as a type and as a value a value import", () => {
    const file = new CodeFile("server.ts");
    file.use(dispatch.type("Dispatcher"));
    file.use(dispatch.value("Dispatcher"));
    file.use(dispatch.type("Dispatcher"));
    expect(String(file.imports())).toBe('import { Dispatcher } from "./runtime/dispatch.js";');
  });

  it("imports a namespace as types only until its values are used", () => {
    const typeOnly = new CodeFile("client.ts");
    expect(String(typeOnly.use(types.namespace("T", true)))).toBe("T");
    expect(String(typeOnly.imports())).toBe('import type * as T from "./types.js";');
    const both = new CodeFile("client.ts");
    both.use(validators.namespace("V", true));
    both.use(validators.namespace("V"));
    both.use(validators.namespace("V", true));
    expect(String(both.imports())).toBe('import * as V from "./validators.js";');
    expect(() => both.use(validators.namespace("W"))).toThrow(/imported as V and W/);
  });

  it("writes specifiers relative to the file's own folder", () => {
    const file = new CodeFile("legacy/2025-06-18/validators.ts");
    file.use(outputModule("runtime/formats.ts").value("isUri"));
    file.use(outputModule("legacy/2025-06-18/types.ts").namespace("T", true));
    expect(String(file.imports())).toBe(
      [
        'import { isUri } from "../../runtime/formats.js";',
        'import type * as T from "./types.js";',
      ].join("\n"),
    );
    expect(() => file.use(outputModule(file.path).value("x"))).toThrow(/cannot import itself/);
  });

  it("prints modules in the layout's order, then the others in order of first use", () => {
    const file = new CodeFile("server.ts", [types.path, dispatch.path]);
    file.use(http.value("serveHttp"));
    file.use(outputModule("runtime/checks.ts").value("VALID"));
    file.use(dispatch.value("Dispatcher"));
    file.use(types.namespace("T", true));
    expect(file.imported()).toEqual([
      "types.ts",
      "runtime/dispatch.ts",
      "runtime/http.ts",
      "runtime/checks.ts",
    ]);
  });

  it("refuses an imported name that is not an identifier", () => {
    expect(() => new CodeFile("a.ts").use(dispatch.value("a-b"))).toThrow(/not a valid/);
  });
});

describe("CheckCode: the runtime's check helpers, imported only where the code calls them", () => {
  it("imports checked for one definition, and nothing else", () => {
    const file = new CodeFile("client.ts");
    const checks = new CheckCode(file, validators.namespace("V"));
    expect(String(checks.of("CallToolResult"))).toBe(
      "checked(V.isCallToolResult, V.validateCallToolResult)",
    );
    expect(String(file.imports())).toBe(
      [
        'import * as V from "./validators.js";',
        'import { checked } from "./runtime/schema/checks.js";',
      ].join("\n"),
    );
  });

  it("imports anyOf only for a union of results, VALID only for an unchecked one", () => {
    const file = new CodeFile("server.ts");
    const checks = new CheckCode(file, validators.namespace("V"));
    expect(String(checks.anyOf([]))).toBe("() => VALID");
    expect(String(file.imports())).toBe('import { VALID } from "./runtime/schema/checks.js";');
    expect(String(checks.anyOf(["A", "B"]))).toBe(
      "anyOf(checked(V.isA, V.validateA), checked(V.isB, V.validateB))",
    );
    expect(String(checks.paramsOf("PingRequest", "ping"))).toBe(
      'paramsOf(V.validatePingRequest, "ping")',
    );
    expect(String(file.imports())).toContain(
      'import { VALID, anyOf, checked, paramsOf } from "./runtime/schema/checks.js";',
    );
  });
});

describe("CodeFile.render: templates take code only", () => {
  it("refuses a plain string anywhere in the data", () => {
    const file = new CodeFile("client-node.ts");
    expect(() =>
      file.render("index.ts.hbs", { doc: code``, modules: [{ path: "./x.js" as never }] }),
    ).toThrow(/data.modules\[0\].path: a plain string/);
  });

  it("renders code and the imports recorded before", () => {
    const file = new CodeFile("index.ts");
    const text = file.render("index.ts.hbs", {
      doc: code`/** doc */\n`,
      modules: [{ path: code`${"./types.js"}`, namespace: null }],
    });
    expect(text).toBe('/** doc */\nexport * from "./types.js";\n');
  });
});
