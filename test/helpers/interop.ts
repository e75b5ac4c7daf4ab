import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { ROOT } from "./spec.js";

/**
 * What the interop tests share: the example conformance server (`examples/conformance-server.ts`),
 * its facts, how to build, start and stop it, and a check of results with generated validators.
 */
export const FIXTURE_SERVER_INFO = { name: "mcp-gen-conformance-fixture", version: "1.0.0" };

/** Its tools, in the order `tools/list` gives them. */
export const FIXTURE_TOOL_NAMES = [
  "test_simple_text",
  "test_image_content",
  "test_audio_content",
  "test_embedded_resource",
  "test_multiple_content_types",
  "test_error_handling",
  "test_tool_with_progress",
  "test_missing_capability",
  "test_streaming_elicitation",
  "test_logging_tool",
  "test_trigger_tool_change",
  "test_trigger_prompt_change",
  "test_input_required_result_elicitation",
  "test_input_required_result_sampling",
  "test_input_required_result_list_roots",
  "test_input_required_result_request_state",
  "test_input_required_result_multiple_inputs",
  "test_input_required_result_multi_round",
  "test_input_required_result_tampered_state",
  "test_input_required_result_capabilities",
  "test_header_param",
  "test_tool_with_logging",
  "test_trigger_resource_update",
  "test_sampling",
  "test_elicitation",
  "test_elicitation_sep1034_defaults",
  "test_elicitation_sep1330_enums",
];

/**
 * Compiles the example server against this run's generated output into a private folder (an ESM
 * package of its own), so a test never depends on a stale dist/. Returns its entry and a cleanup.
 */
export function buildFixture(): { fixture: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-interop-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  execFileSync(
    join(ROOT, "node_modules", ".bin", "tsc"),
    ["-p", join(ROOT, "tsconfig.examples.json"), "--outDir", dir],
    { cwd: ROOT, stdio: "pipe" },
  );
  return {
    fixture: join(dir, "examples", "conformance-server.js"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * For a test file: builds the fixture and starts it over HTTP before its tests, stops and removes it
 * after them. Call at the top level; read `fixture` (its entry, for stdio) and `url` inside tests.
 */
export function fixtureProcess(): { readonly fixture: string; readonly url: string } {
  let built: { fixture: string; remove(): void } | undefined;
  let http: { url: string; child: ChildProcess } | undefined;
  beforeAll(async () => {
    built = buildFixture();
    http = await startHttpFixture(built.fixture);
  }, 120_000);
  afterAll(async () => {
    await stopProcess(http?.child);
    built?.remove();
  });
  return {
    get fixture() {
      return built!.fixture;
    },
    get url() {
      return http!.url;
    },
  };
}

/** Spawns the fixture on a free port (`--port 0`) and resolves with its endpoint once it listens. */
export function startHttpFixture(
  fixture: string,
): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  return startListening([fixture, "--port", "0"], "the fixture");
}

/**
 * Spawns `node args…` and resolves once it prints `listening on <url>` on stderr; rejects if it
 * exits first or takes longer than 20 s.
 */
export async function startListening(
  args: string[],
  what: string,
  cwd: string = ROOT,
): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start:\n${stderr}`)), 20_000);
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}:\n${stderr}`));
    });
  });
  return { url, child, stderr: () => stderr };
}

/** Ends a child process with SIGTERM and waits for it; nothing to do when it has already gone. */
export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** The user's answer to each elicitation the fixture asks, by its message. */
export function elicitationAnswer(message: string): Record<string, string | boolean> {
  if (message === "Your name, please?") return { name: "Ada" };
  if (message === "Favourite colour?") return { colour: "teal" };
  if (message === "Some context?") return { context: "from the interop test" };
  if (message === "Go ahead?") return { ok: true };
  throw new Error(`unexpected elicitation: ${message}`);
}

type Validators = Readonly<Record<string, (value: unknown) => { ok: boolean; errors?: unknown }>>;

/** Expects `value` to be a valid `type` by a revision's generated validators. */
export function validIn(validators: Validators): (type: string, value: unknown) => void {
  return (type, value) => {
    const validate = validators[type];
    expect(validate, `no validator ${type}`).toBeTypeOf("function");
    const checked = validate!(value);
    expect(checked.ok ? [] : checked.errors, type).toEqual([]);
  };
}
