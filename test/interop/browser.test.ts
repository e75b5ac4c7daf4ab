/**
 * The generated browser client in a real browser (issue #30): generated/dual/browser.ts bundled by
 * esbuild into a page that Debian's Chromium, driven by playwright-core, loads from one loopback
 * origin, calling MCP servers on another: the dual-era host fixture on the modern era (an
 * `input_required` round answered by the page), through the `node:http` listener and through the
 * fetch handler in Hono, and a server generated for 2025-11-25 alone on the initialize era. Every
 * call is cross-origin, so it passes only with the preflight answered and the answers readable;
 * a server that does not allow the page's origin is refused by the browser.
 * Chromium is required where `.ci/run` installed it (MCP_REQUIRE_CHROMIUM), else skipped, saying so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { build } from "esbuild";
import { chromium, type Browser, type Page } from "playwright-core";
import { createServer as createLegacyServer } from "../../generated/2025-11-25/server.js";
import { ELICIT_MESSAGE, hostServer } from "../hosts/fixture.js";
import { HOSTS, type Hosted } from "../helpers/hosts.js";
import { ROOT } from "../helpers/spec.js";

const CHROMIUM = "/usr/bin/chromium";
const present = existsSync(CHROMIUM);
if (!present && process.env.MCP_REQUIRE_CHROMIUM === "1")
  throw new Error(`${CHROMIUM} is missing, and .ci/run installed it: the browser test must run`);
if (!present) console.warn(`browser test skipped: no ${CHROMIUM} (apt-get install chromium)`);

type Run =
  { era: string | null; tools: string[]; text: string; elicited: string[] } | { error: string };

describe.runIf(present)("the generated browser client in Chromium, across origins", () => {
  let browser: Browser;
  let page: Page;
  let pageServer: Server;
  let origin: string;
  const stops: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    const bundled = await build({
      entryPoints: [`${ROOT}/test/hosts/browser-page.ts`],
      bundle: true,
      format: "iife",
      platform: "browser",
      target: "es2022",
      write: false,
      logLevel: "silent",
    });
    const script = bundled.outputFiles[0]!.text;
    pageServer = createHttpServer((req, res) => {
      if (req.url === "/page.js") {
        res.writeHead(200, { "Content-Type": "text/javascript" });
        res.end(script);
      } else {
        res.writeHead(200, { "Content-Type": "text/html" });
        res.end('<!doctype html><title>mcp</title><script src="/page.js"></script>');
      }
    });
    await new Promise<void>((resolve) => pageServer.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    page = await browser.newPage();
    await page.goto(`${origin}/`);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all(stops.map((stop) => stop()));
    await new Promise((resolve) => pageServer?.close(resolve));
  });

  const run = (url: string, tool: string): Promise<Run> =>
    page.evaluate(
      ([url, tool]) =>
        (globalThis as unknown as { mcpRun(url: string, tool: string): Promise<Run> }).mcpRun(
          url,
          tool,
        ),
      [url, tool] as const,
    );

  it("calls the modern era of a node:http server on another origin, answering its input round", async () => {
    const listening = await hostServer({ allowedOrigins: [origin] }).listen({ port: 0 });
    stops.push(() => listening.close());
    expect(await run(listening.url, "ask")).toEqual({
      era: "modern",
      tools: ["ask", "announce"],
      text: 'hello Chromium ({"round":1})',
      elicited: [ELICIT_MESSAGE],
    });
  });

  it("calls the modern era through the fetch handler (Hono) on another origin", async () => {
    const hono = HOSTS.find((host) => host.name.startsWith("Hono"))!;
    const hosted: Hosted = await hono.start({ allowedOrigins: [origin] });
    stops.push(() => hosted.stop());
    const result = await run(hosted.url, "ask");
    expect(result).toMatchObject({ era: "modern", text: 'hello Chromium ({"round":1})' });
  });

  it("calls a 2025-11-25 server on the initialize era on another origin", async () => {
    const legacy = createLegacyServer({
      info: { name: "legacy-browser", version: "1.0.0" },
      capabilities: { tools: {} },
      handlers: {
        "tools/list": () => ({ tools: [{ name: "greet", inputSchema: { type: "object" } }] }),
        "tools/call": (params) => ({ content: [{ type: "text", text: `hello ${params.name}` }] }),
      },
    });
    const listening = await legacy.listen({ port: 0, allowedOrigins: [origin] });
    stops.push(() => listening.close());
    expect(await run(listening.url, "greet")).toEqual({
      era: "legacy",
      tools: ["greet"],
      text: "hello greet",
      elicited: [],
    });
  });

  it("is refused by the browser when the server does not allow the page's origin", async () => {
    // (By default a loopback server allows loopback pages: this one names another origin.)
    const listening = await hostServer({ allowedOrigins: ["https://app.example"] }).listen({
      port: 0,
    });
    stops.push(() => listening.close());
    const result = await run(listening.url, "ask");
    expect(result).toHaveProperty("error");
    expect((result as { error: string }).error).toMatch(/fetch/i);
  });
});
