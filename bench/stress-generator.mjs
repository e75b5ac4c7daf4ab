// The generator's lines of `npm run stress` (issue 33): hostile output folders and schemas given to
// the built CLI, each run as a process of its own in a scratch folder, with its peak resident
// memory, its time, its exit code and what it printed. A line holds when the run refused with one
// line naming the place (exit 1, nothing outside the output folder touched), or generated what it
// should at the cost it should. MCP_GEN_CLI=<path to main.js> runs them against another build
// (how the "before" figures in bench/STRESS.md were taken).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { ROOT, SPEC_DIR, TMP } from "./prepare.mjs";
import { now, report, sampler } from "./stress-kit.mjs";

const CLI = process.env.MCP_GEN_CLI ?? join(ROOT, "dist", "generator", "cli", "main.js");
const REV = "2099-01-01";

/** Runs the CLI in `cwd`, bounded by a timeout; exit code, stderr, memory figures and seconds. */
function run(cwd, args, timeoutMs = 300_000) {
  const began = now();
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  const memory = sampler(child.pid);
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdout.resume();
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve) =>
    child.on("exit", async (code, signal) => {
      clearTimeout(timer);
      const seconds = (now() - began) / 1000;
      resolve({ code: signal ?? code, stderr, figures: await memory.stop(), seconds });
    }),
  );
}

/** A scratch folder with `spec/<REV>/schema.ts` holding `schema`, and a file outside any output. */
function scratch(schema) {
  mkdirSync(TMP, { recursive: true });
  const dir = mkdtempSync(join(TMP, "stress-gen-"));
  mkdirSync(join(dir, "spec", REV), { recursive: true });
  writeFileSync(join(dir, "spec", REV, "schema.ts"), schema);
  mkdirSync(join(dir, "outside"));
  writeFileSync(join(dir, "outside", "x"), "not mcp-gen's\n");
  return dir;
}

const fixture = () =>
  readFileSync(join(ROOT, "test", "fixtures", "protocol-surface", "schema.ts"), "utf8");
const generate = (dir, ...extra) =>
  run(dir, ["--revision", REV, "--spec-dir", "spec", "--out", "out", ...extra]);
/** The first line a run printed, its scratch folder left out. */
const said = (r) =>
  r.stderr
    .trim()
    .split("\n")[0]
    .replace(/^mcp-gen: /, "")
    .replaceAll(/\S*\/stress-gen-[^/]+\//g, "");
const oneLine = (r) => /^mcp-gen: [^\n]+\n$/.test(r.stderr) && !/internal error/.test(r.stderr);
const refusedAt = (r, line) =>
  r.code === 1 && oneLine(r) && r.stderr.includes(`schema.ts:${line}: `);
/** The run's exit, time and peak memory (the process is gone by the end: no "after" figure). */
const cost = (r) =>
  `exit ${r.code} in ${r.seconds.toFixed(1)} s, peak RSS ${r.figures.peak.toFixed(0)} MiB`;

/** A schema attack: the schema text, the line a refusal must name, and what it must say. */
function schemaAttack(name, schema, line, says) {
  return async () => {
    const dir = scratch(schema);
    const r = await generate(dir);
    const held = refusedAt(r, line) && says.test(r.stderr) && !existsSync(join(dir, "out"));
    report(name, held, null, null, `${cost(r)}: ${said(r)}`);
    rmSync(dir, { recursive: true, force: true });
  };
}

const PRELUDE = "/** Fine. */\nexport interface Ok {\n  ok: boolean;\n}\n\n"; // 5 lines

export const GENERATOR_ATTACKS = {
  /** A manifest entry two folders up: before, the run deleted that file. */
  async "generator: manifest ../outside/x"() {
    const dir = scratch(fixture());
    await generate(dir);
    const file = join(dir, "out", ".mcp-gen.json");
    const manifest = JSON.parse(readFileSync(file, "utf8"));
    manifest.files["../outside/x"] = createHash("sha256").update("not mcp-gen's\n").digest("hex");
    writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
    const r = await generate(dir, "--force");
    const kept = existsSync(join(dir, "outside", "x"));
    const held = r.code === 1 && oneLine(r) && kept;
    report(
      "generator: manifest ../outside/x",
      held,
      null,
      null,
      `${cost(r)}; the file outside ${kept ? "kept" : "DELETED"}: ${said(r)}`,
    );
    rmSync(dir, { recursive: true, force: true });
  },

  /** out/runtime made a link to a folder elsewhere: before, the run wrote into that folder. */
  async "generator: out/runtime a symlink"() {
    const dir = scratch("");
    const args = ["--revision", "2026-07-28", "--spec-dir", SPEC_DIR, "--legacy", "none"];
    await run(dir, [...args, "--out", "out"]);
    renameSync(join(dir, "out", "runtime"), join(dir, "outside", "runtime"));
    const victim = join(dir, "outside", "runtime", "shared", "jsonrpc.ts");
    writeFileSync(victim, "// mine\n");
    symlinkSync(join(dir, "outside", "runtime"), join(dir, "out", "runtime"));
    const r = await run(dir, [...args, "--out", "out", "--force"]);
    const kept = readFileSync(victim, "utf8") === "// mine\n";
    const held = r.code === 1 && oneLine(r) && kept;
    report(
      "generator: out/runtime a symlink",
      held,
      null,
      null,
      `${cost(r)}; the linked folder ${kept ? "untouched" : "WRITTEN"}: ${said(r)}`,
    );
    rmSync(dir, { recursive: true, force: true });
  },

  /** Names of the prototype: before, validators["call"] was a function and every call without `toString` failed. */
  async "generator: __proto__ and constructor names"() {
    const hostile = `${fixture()}
/** A definition named like the prototype. */
export interface __proto__ {
  a: string;
}

/** Optional properties named like what every object inherits. */
export interface Odd {
  __proto__?: string;
  constructor?: string;
  toString?: number;
}
`;
    const dir = scratch(hostile);
    const r = await generate(dir);
    let detail = cost(r);
    let held = false;
    if (r.code === 0) {
      const bundle = join(dir, "validators.mjs");
      await build({
        entryPoints: [join(dir, "out", "validators.ts")],
        bundle: true,
        format: "esm",
        outfile: bundle,
        logLevel: "silent",
      });
      const { validators, validateOdd } = await import(bundle);
      const ownProto = Object.keys(validators).includes("__proto__");
      const inherited = typeof validators.call === "function";
      const omitted = validateOdd({}).ok;
      held = ownProto && !inherited && omitted && !validateOdd({ toString: "x" }).ok;
      detail += `; validators: __proto__ ${ownProto ? "a key" : "MISSING"}, .call ${inherited ? "a FUNCTION" : "undefined"}; Odd without constructor/toString ${omitted ? "valid" : "REFUSED"}`;
    }
    report("generator: __proto__ names", held, null, null, detail);
    rmSync(dir, { recursive: true, force: true });
  },

  "generator: 2,000-deep object": schemaAttack(
    "generator: 2,000-deep object",
    `${PRELUDE}export interface Deep {\n  a: ${"{ a: ".repeat(2000)}string${" }".repeat(2000)};\n}\n`,
    7,
    /nested more than \d+ levels/,
  ),

  "generator: 3,000-deep Array<>": schemaAttack(
    "generator: 3,000-deep Array<>",
    `${PRELUDE}export type Deep = ${"Array<".repeat(3000)}string${">".repeat(3000)};\n`,
    6,
    /nested more than \d+ levels/,
  ),

  "generator: 20,000-member union": schemaAttack(
    "generator: 20,000-member union",
    `${PRELUDE}export type Big =\n${Array.from({ length: 20_000 }, (_, i) => `  | "m${i}"`).join("\n")};\n`,
    7,
    /a union of 20000 members/,
  ),

  /** A Unicode interface name: before, "internal error". */
  async "generator: Unicode names"() {
    const dir = scratch(
      "/** Größe. */\nexport interface Größe {\n  maß: string;\n  名前?: string;\n}\n",
    );
    const r = await generate(dir);
    const held =
      r.code === 0 && readFileSync(join(dir, "out", "types.ts"), "utf8").includes("Größe");
    report("generator: Unicode names", held, null, null, `${cost(r)}: ${said(r)}`);
    rmSync(dir, { recursive: true, force: true });
  },

  /** 15,000 definitions: before, 105 s and a 2.2 GiB peak. */
  async "generator: 15,000 definitions"() {
    const n = 15_000;
    let schema = "";
    for (let i = 0; i < n; i++)
      schema += `/** D${i}. */\nexport interface D${i} {\n  a: string;\n  b?: D${(i + 1) % n};\n}\n`;
    const dir = scratch(schema);
    const r = await generate(dir);
    const held = r.code === 0 && r.figures.peak < 1024;
    report(
      "generator: 15,000 definitions",
      held,
      null,
      null,
      `${cost(r)} (${(schema.length / 2 ** 20).toFixed(1)} MiB of schema); peak ${held ? "under" : "OVER"} 1 GiB`,
    );
    rmSync(dir, { recursive: true, force: true });
  },
};
