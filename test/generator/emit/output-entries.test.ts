/**
 * The output's entry points: `index.ts` re-exports everything, the client included (as the `client`
 * namespace: its error classes share names with the schema's error types); `browser.ts` only what
 * runs without Node. Proven by bundling for the browser with esbuild and by running the bundled
 * validators in a V8 context that has no Node globals at all.
 */
import { build } from "esbuild";
import { runInContext, createContext } from "node:vm";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { examples, generatedDir } from "../../helpers/spec.js";

const REVISION = "2026-07-28";
const dir = generatedDir(REVISION);

async function bundleForBrowser(entry: string, globalName?: string): Promise<string> {
  const result = await build({
    entryPoints: [join(dir, entry)],
    bundle: true,
    platform: "browser",
    format: globalName ? "iife" : "esm",
    ...(globalName ? { globalName } : {}),
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

describe("entry points", () => {
  it("index.ts exports the client as a namespace, createClient and httpTransport, beside the server and the schema's types", async () => {
    const index = (await import(join(dir, "index.ts"))) as Record<string, unknown> & {
      client: Record<string, unknown>;
    };
    expect(typeof index.createServer).toBe("function");
    expect(index.createClient).toBe(index.client.createClient);
    expect(typeof index.client.UnsupportedProtocolVersionError).toBe("function");
    expect(typeof index.stdioTransport).toBe("function");
    expect(typeof index.client.httpTransport).toBe("function");
    expect(index.httpTransport).toBe(index.client.httpTransport);
  });

  it("browser.ts bundles for the browser; index.ts, which has the Node transports, does not", async () => {
    const code = await bundleForBrowser("browser.ts");
    expect(code).not.toMatch(/from\s*["']node:/);
    expect(code).toContain("createClient");
    await expect(bundleForBrowser("index.ts")).rejects.toThrow(/node:/);
  });

  it("the bundled validators run in a context with no Node globals", async () => {
    const code = await bundleForBrowser("validators.ts", "mcpValidators");
    const sandbox = createContext({});
    expect(
      runInContext(
        "[typeof process, typeof Buffer, typeof require, typeof setTimeout].join()",
        sandbox,
      ),
    ).toBe("undefined,undefined,undefined,undefined");
    runInContext(code, sandbox);
    const check = runInContext(
      "(name, json) => { const r = mcpValidators.validators[name](JSON.parse(json)); return JSON.stringify({ ok: r.ok, errors: r.errors }); }",
      sandbox,
    ) as (name: string, json: string) => string;
    const official = examples(REVISION);
    expect(official.length).toBeGreaterThan(100);
    for (const example of official)
      expect(JSON.parse(check(example.type, JSON.stringify(example.value))), example.file).toEqual({
        ok: true,
      });
    const wrong = JSON.parse(check("TextContent", JSON.stringify({ type: "text", text: 7 }))) as {
      ok: boolean;
      errors: Array<{ path: string }>;
    };
    expect(wrong.ok).toBe(false);
    expect(wrong.errors[0]!.path).toBe("/text");
  });
});
