/**
 * The README's quick start, word for word, as a new user follows it: the packed tarball where the
 * README's install line expects it (`../mcp-gen/` beside the new project), then each command of
 * its `sh` blocks in order and each file block (`title="…"`) written where the steps have got to.
 * A command ending in `&` (the HTTP server) runs in the background until the steps are done. Only
 * the environment differs from a user's machine: the spec from the local copy (no download), a
 * private mcp-gen cache, npm's cache before the registry, and PORT set to a free loopback port.
 */
import { spawn, execFile, execFileSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeBlocks, section, type CodeBlock } from "../helpers/markdown.js";
import { ROOT, SPEC_DIR } from "../helpers/spec.js";

const run = promisify(execFile);

/** A step of the quick start: a shell command, or a file the user writes. */
type Step = { command: string; line: number } | { file: string; text: string; line: number };

/** The quick start's steps, in the README's order. */
function quickStartSteps(readme: string): Step[] {
  const text = section(readme, "Quick start");
  const offset = readme.split("\n").indexOf("## Quick start");
  return codeBlocks("README.md", text).flatMap((block: CodeBlock): Step[] => {
    const line = offset + block.line;
    if (block.title !== undefined) return [{ file: block.title, text: `${block.code}\n`, line }];
    if (block.lang !== "sh") return [];
    return block.code
      .split("\n")
      .map((command) => command.replace(/\s+#.*$/, "").trim())
      .filter((command) => command !== "" && !command.startsWith("#"))
      .map((command) => ({ command, line }));
  });
}

/** A loopback port nothing listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((done) => probe.close(() => done()));
  return port;
}

/** Resolves with the first line a background command writes on stderr; rejects if it ends first or stays silent. */
function firstLine(child: ChildProcess, what: string): Promise<string> {
  return new Promise((done, fail) => {
    let text = "";
    const timer = setTimeout(() => fail(new Error(`${what}: nothing on stderr in 60 s`)), 60_000);
    child.stderr!.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (text.includes("\n")) {
        clearTimeout(timer);
        done(text.split("\n")[0]!);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`${what} ended (${code}) before it wrote a line: ${text}`));
    });
  });
}

let work: string;
let version: string;
const background: ChildProcess[] = [];
/** What each foreground command printed on stdout, by command. */
const printed = new Map<string, string>();
let project: string;
/** Every command of the quick start, in order. */
let commands: string[];
let listening: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "mcp-gen-quick-start-"));
  version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string })
    .version;
  mkdirSync(join(work, "mcp-gen"));
  const [packed] = JSON.parse(
    execFileSync(
      "npm",
      ["pack", "--json", "--ignore-scripts", "--pack-destination", join(work, "mcp-gen")],
      {
        cwd: ROOT,
        encoding: "utf8",
      },
    ),
  ) as Array<{ filename: string }>;
  expect(packed!.filename).toBe(`mcp-gen-${version}.tgz`);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MCP_SPEC_DIR: SPEC_DIR,
    MCP_GEN_CACHE_DIR: join(work, "cache"),
    PORT: String(await freePort()),
    npm_config_prefer_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  };
  let cwd = work;
  const steps = quickStartSteps(readFileSync(join(ROOT, "README.md"), "utf8"));
  commands = steps.flatMap((step) => ("command" in step ? step.command.split(" && ") : []));
  for (const step of steps) {
    if ("file" in step) {
      mkdirSync(dirname(join(cwd, step.file)), { recursive: true });
      writeFileSync(join(cwd, step.file), step.text);
      continue;
    }
    for (const part of step.command.split(" && ")) {
      const where = `README.md:${step.line}: ${part}`;
      const cd = /^cd\s+(\S+)$/.exec(part);
      if (cd) {
        cwd = resolve(cwd, cd[1]!);
        continue;
      }
      if (part.endsWith("&")) {
        const child = spawn("bash", ["-c", `exec ${part.slice(0, -1).trim()}`], {
          cwd,
          env,
          stdio: ["ignore", "ignore", "pipe"],
        });
        background.push(child);
        listening = await firstLine(child, where);
        continue;
      }
      try {
        const { stdout } = await run("bash", ["-c", part], {
          cwd,
          env,
          encoding: "utf8",
          maxBuffer: 16 << 20,
        });
        printed.set(part, stdout);
      } catch (e) {
        const error = e as { stdout?: string; stderr?: string };
        throw new Error(`${where} failed:\n${error.stderr ?? ""}${error.stdout ?? ""}`, {
          cause: e,
        });
      }
    }
  }
  project = cwd;
}, 600_000);

afterAll(() => {
  for (const child of background) child.kill();
  rmSync(work, { recursive: true, force: true });
});

describe("the README's quick start, from the packed tarball in a fresh npm init -y project", () => {
  it("starts from npm init -y, installs the tarball beside it, and generates with the config", () => {
    expect(commands.indexOf("npm init -y")).toBeGreaterThanOrEqual(0);
    const install = commands.find((command) => command.startsWith("npm install"));
    expect(install).toContain(`../mcp-gen/mcp-gen-${version}.tgz`);
    expect(commands.indexOf("npm init -y")).toBeLessThan(commands.indexOf(install!));
    expect(commands).toContain("npx mcp-gen");
  });

  it("makes an ES module project with mcp-gen, TypeScript and Node's types installed", () => {
    const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as {
      type?: string;
      devDependencies?: Record<string, string>;
    };
    expect(pkg.type).toBe("module");
    expect(Object.keys(pkg.devDependencies ?? {}).sort()).toEqual([
      "@types/node",
      "mcp-gen",
      "typescript",
    ]);
  });

  it("compiles under a strict tsconfig", () => {
    const tsconfig = JSON.parse(readFileSync(join(project, "tsconfig.json"), "utf8")) as {
      compilerOptions: { strict?: boolean };
    };
    expect(tsconfig.compilerOptions.strict).toBe(true);
    // `npx tsc` ran as a step (a failure stops the steps); its output is there to run.
    expect(readFileSync(join(project, "dist", "server.js"), "utf8")).toContain("definitions");
  });

  it("serves HTTP on loopback, at the port asked for", () => {
    expect(listening).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it("the client calls both tools, reads the resource and gets the prompt, over stdio and over HTTP", () => {
    const output = printed.get("node dist/client.js");
    expect(output).toBeDefined();
    const lines = output!.trimEnd().split("\n");
    for (const transport of ["stdio", "http"]) {
      const at = lines.findIndex((line) => line.startsWith(`${transport} `));
      expect(at, output).toBeGreaterThanOrEqual(0);
      expect(lines[at]).toBe(`${transport} modern [ 'add', 'greet' ]`);
      const rest = lines.slice(at + 1).join("\n");
      expect(rest).toMatch(/^\{ sum: 5 \} \{ greeting: 'Hello, Ada!' \}/);
      expect(rest).toContain("text: 'Have a nice day.'");
      expect(rest).toContain("text: 'Tell me about MCP.'");
    }
  });
});
