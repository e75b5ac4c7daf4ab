/**
 * A stand-in for the generated dispatcher behind the Streamable HTTP transport tests: it checks
 * `_meta` itself, then the headers the transport received against the body (the generated
 * dispatcher's envelope stage, by `rules`), then the version, in the order the generated dispatcher does; a few tools exercise the transport's framing (progress, slow, throws…). And
 * `httpFixture()`, one transport on port 0 serving it, shared by the tests of a file.
 */
import { afterAll, beforeAll } from "vitest";
import { serveOn } from "./http-paths.js";
import type { HttpServerHandle, ServeHttpOptions } from "../../runtime/server/http/index.js";
import { ErrorCode, failure, isRecord, success } from "../../runtime/shared/jsonrpc.js";
import type { JsonRpcId } from "../../runtime/shared/jsonrpc.js";
import type { Delivery, MessageHandler, Outcome } from "../../runtime/server/transport.js";
import { checkHeaders, type HeaderRules } from "../../runtime/shared/http-headers.js";
import { PV, RULES, VERSION } from "./http-wire.js";

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface Listen {
  id: JsonRpcId;
  delivery: Delivery;
  /** Ends the subscription from the server side. */
  end(response: Outcome["response"]): void;
}

export class FakeDispatcher implements MessageHandler {
  /** The header rules its envelope check applies (a generated dispatcher's come from its description). */
  constructor(private readonly rules: HeaderRules = RULES) {}

  received: unknown[] = [];
  logs: string[] = [];
  /** Methods/tool names whose signal was aborted, with the reason. */
  aborted: string[] = [];
  listens: Listen[] = [];
  /** Notifies that returned after the response: must be dropped silently. */
  lateNotifies = 0;
  /** When set, each tools/list waits (up to 2 s) until this many have been in flight at once. */
  barrier = 0;
  inFlight = 0;
  maxInFlight = 0;

  log(message: string): void {
    this.logs.push(message);
  }

  async handle(message: unknown, delivery: Delivery): Promise<Outcome> {
    this.received.push(message);
    if (!isRecord(message) || !("method" in message) || !("id" in message))
      return { response: null, httpStatus: 202 };
    const id = message["id"] as JsonRpcId;
    const method = message["method"] as string;
    const params = isRecord(message["params"]) ? message["params"] : {};
    const error = (code: number, text: string, httpStatus: number): Outcome => ({
      response: failure(id, { code, message: text }),
      httpStatus,
    });
    const meta = params["_meta"];
    if (!isRecord(meta) || typeof meta[PV] !== "string")
      return error(ErrorCode.InvalidParams, "Invalid params: _meta", 400);
    const envelope =
      delivery.headers === undefined
        ? null
        : checkHeaders(delivery.headers, { method, params }, this.rules);
    if (envelope !== null) return { response: failure(id, envelope), httpStatus: 400 };
    if (meta[PV] !== VERSION) return error(-32022, "Unsupported protocol version", 400);
    const ok = (result: Record<string, unknown>): Outcome => ({
      response: success(id, { resultType: "complete", ...result }),
      httpStatus: 200,
    });

    switch (method) {
      case "server/discover":
        return ok({ supportedVersions: [VERSION], capabilities: {} });
      case "tools/list": {
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        const deadline = Date.now() + 2000;
        while (this.maxInFlight < this.barrier && Date.now() < deadline) await sleep(5);
        this.inFlight--;
        return ok({ tools: [] });
      }
      case "resources/read":
        return ok({ contents: [{ uri: params["uri"], text: "hi" }] });
      case "prompts/get":
      case "custom/get":
        return ok({ messages: [] });
      case "tools/call":
        return this.callTool(String(params["name"]), meta, delivery, ok, error);
      case "subscriptions/listen":
        delivery.notify({
          jsonrpc: "2.0",
          method: "notifications/subscriptions/acknowledged",
          params: { _meta: { "io.modelcontextprotocol/subscriptionId": id }, notifications: {} },
        });
        return new Promise<Outcome>((resolve) => {
          delivery.signal.addEventListener("abort", () => {
            this.aborted.push(`listen:${String(id)}`);
            resolve({ response: null, httpStatus: 200 });
          });
          this.listens.push({
            id,
            delivery,
            end: (response) => resolve({ response, httpStatus: 200 }),
          });
        });
      default:
        return error(ErrorCode.MethodNotFound, "Method not found", 404);
    }
  }

  private async callTool(
    name: string,
    meta: Record<string, unknown>,
    delivery: Delivery,
    ok: (result: Record<string, unknown>) => Outcome,
    error: (code: number, text: string, status: number) => Outcome,
  ): Promise<Outcome> {
    const text = (t: string) => ok({ content: [{ type: "text", text: t }] });
    switch (name) {
      case "echo":
        return text("echo");
      case "progress": {
        const token = meta["progressToken"] ?? "tok";
        for (let i = 1; i <= 3; i++) {
          delivery.notify({
            jsonrpc: "2.0",
            method: "notifications/progress",
            params: { progressToken: token, progress: i, total: 3, message: `step ${i}\nof 3` },
          });
          await sleep(10);
        }
        setTimeout(() => {
          delivery.notify({
            jsonrpc: "2.0",
            method: "notifications/progress",
            params: { progressToken: token, progress: 4 },
          });
          this.lateNotifies++;
        }, 20);
        return text("done");
      }
      case "slow":
        return new Promise<Outcome>((resolve) => {
          delivery.signal.addEventListener("abort", () => {
            this.aborted.push(`slow:${String(delivery.signal.reason)}`);
            resolve({ response: null, httpStatus: 200 });
          });
        });
      case "slow-progress":
        delivery.notify({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: "sp", progress: 1 },
        });
        return new Promise<Outcome>((resolve) => {
          delivery.signal.addEventListener("abort", () => {
            this.aborted.push("slow-progress");
            delivery.notify({
              jsonrpc: "2.0",
              method: "notifications/progress",
              params: { progressToken: "sp", progress: 2 },
            });
            resolve({
              response: success(1, { resultType: "complete", content: [] }),
              httpStatus: 200,
            });
          });
        });
      case "throws":
        throw new Error("boom");
      case "bigint":
        return ok({ value: 10n });
      case "fails":
        return error(-32602, "Invalid params: nope", 400);
      default:
        return text(`called ${name}`);
    }
  }
}

export interface HttpFixture {
  /** The dispatcher behind `server`. */
  readonly dispatcher: FakeDispatcher;
  /** Serves `dispatcher` with a 64 KiB body limit. */
  readonly server: HttpServerHandle;
  readonly url: string;
  /** Another server on port 0 (closed after the file's tests), serving `handler`. */
  start(options?: Partial<ServeHttpOptions>, handler?: MessageHandler): Promise<HttpServerHandle>;
}

/** Registers the hooks that start one server before a file's tests and close every one after. */
export function httpFixture(): HttpFixture {
  const servers: HttpServerHandle[] = [];
  let dispatcher: FakeDispatcher | undefined;
  let server: HttpServerHandle | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("httpFixture: used before its beforeAll ran");
    return value;
  };
  const fixture: HttpFixture = {
    get dispatcher() {
      return started(dispatcher);
    },
    get server() {
      return started(server);
    },
    get url() {
      return started(server).url;
    },
    async start(options = {}, handler = new FakeDispatcher({ ...RULES, ...options.headerRules })) {
      const handle = await serveOn(handler, { port: 0, headerRules: RULES, ...options });
      servers.push(handle);
      return handle;
    },
  };
  beforeAll(async () => {
    dispatcher = new FakeDispatcher();
    server = await fixture.start({ maxBodyBytes: 64 * 1024 }, dispatcher);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  return fixture;
}
