/**
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector` 2.12.0 `--cli`), which speaks the
 * initialize era, lists and calls tools of the dual-era example server (compiled from this run's
 * generated/dual) over stdio (the Inspector spawns it) and over Streamable HTTP.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { FIXTURE_TOOL_NAMES, fixtureProcess } from "../helpers/interop.js";
import { ROOT } from "../helpers/spec.js";

const INSPECTOR = join(
  ROOT,
  "node_modules",
  "@modelcontextprotocol",
  "inspector",
  "clients",
  "launcher",
  "build",
  "index.js",
);
const run = promisify(execFile);

const started = fixtureProcess();

/** Runs `inspector --cli <target…> <args…>` and parses the JSON it prints (a failure exits 1 with the error on stderr). */
async function inspector(target: string[], args: string[]): Promise<Record<string, unknown>> {
  let printed: string;
  try {
    ({ stdout: printed } = await run(process.execPath, [INSPECTOR, "--cli", ...target, ...args], {
      cwd: ROOT,
      timeout: 60_000,
    }));
  } catch (error) {
    const failed = error as { code?: unknown; stderr?: unknown };
    expect(failed.code).toBe(1);
    printed = String(failed.stderr ?? "");
  }
  return JSON.parse(printed) as Record<string, unknown>;
}

describe.each(["stdio", "http"] as const)("Inspector CLI over %s", (kind) => {
  const target = (): string[] =>
    kind === "stdio"
      ? [process.execPath, started.fixture, "--stdio"]
      : [started.url, "--transport", "http"];

  it("lists the tools", async () => {
    const listed = (await inspector(target(), ["--method", "tools/list"])) as {
      tools: Array<{ name: string }>;
    };
    expect(listed.tools.map((t) => t.name)).toEqual(FIXTURE_TOOL_NAMES);
    expect(listed).not.toHaveProperty("resultType");
  }, 60_000);

  it("calls a tool", async () => {
    const called = await inspector(target(), [
      "--method",
      "tools/call",
      "--tool-name",
      "test_simple_text",
    ]);
    expect(called).toEqual({
      content: [{ type: "text", text: "A plain text answer from the mcp-gen fixture." }],
    });
  }, 60_000);

  it("a tool whose handler needs sampling, which the Inspector CLI does not declare, gets the missing-capability error", async () => {
    // A handler with no fallback: it asks again after the missing capability (ctx.inputError).
    const called = await inspector(target(), [
      "--method",
      "tools/call",
      "--tool-name",
      "test_input_required_result_sampling",
    ]);
    // A JSON-RPC error on a session travels in a 200 answer, so the Inspector shows the error itself.
    expect(called).toEqual({
      error: { code: "error", message: "Missing required client capability" },
    });
  }, 60_000);
});
