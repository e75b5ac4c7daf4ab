/**
 * A generated 2026-07-28 server with handlers built to exercise every dispatcher rule: tools that
 * succeed, fail, throw, return invalid results, report progress, log, ask for input; capabilities
 * chosen so that one method with a handler is undeclared and one declared method has no handler.
 */
import {
  createServer,
  RpcError,
  type Handlers,
  type McpServer,
  type RequestContext,
} from "../../generated/2026-07-28/index.js";
import { CC, CI, PV, type Msg } from "./server-harness.js";

export const REVISION = "2026-07-28";

export const INFO = { name: "server-fixture", version: "9.9.9" };
export const INSTRUCTIONS = "Fixture instructions.";
/** The `cache` option of the default fixture: distinct from the runtime's own defaults. */
export const CACHE = { ttlMs: 4242, cacheScope: "private" } as const;

export const CAPABILITIES = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  // `subscribe` but no `listChanged`: resourcesListChanged is not honoured, resourceSubscriptions is.
  resources: { subscribe: true },
  // No `completions`, although a completion/complete handler exists.
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (value: string) => ({ type: "text" as const, text: value });

export const ELICIT_CONFIRM = {
  method: "elicitation/create",
  params: {
    mode: "form",
    message: "Go ahead?",
    requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
  },
};
export const SAMPLE = {
  method: "sampling/createMessage",
  params: {
    messages: [{ role: "user", content: { type: "text", text: "Say hi." } }],
    maxTokens: 10,
  },
};
export const LIST_ROOTS = { method: "roots/list", params: {} };

/** Nesting depth of a JSON value, measured without recursion. */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    max = Math.max(max, depth);
    if (typeof node === "object" && node !== null)
      for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return max;
}

/** What the `ask` tool reports on its completing round, for the tests to inspect. */
export function report(ctx: RequestContext): Msg {
  return {
    state: ctx.state,
    keys: Reflect.ownKeys(ctx.inputResponses).map(String),
    plainPrototype: Object.getPrototypeOf(ctx.inputResponses) === Object.prototype,
    confirm: ctx.inputResponses.confirm ?? null,
  };
}

type ToolRun = (args: Record<string, unknown>, ctx: RequestContext) => unknown;

const TOOLS: Record<string, ToolRun> = {
  echo: (args) => ({ content: [text(JSON.stringify(args))] }),
  depth: (args) => ({ content: [text(String(depthOf(args)))] }),
  needs_sampling: (_args, ctx) => {
    ctx.requireCapabilities({ sampling: {} });
    return { content: [text("the client can sample")] };
  },
  needs_two: (_args, ctx) => {
    ctx.requireCapabilities({ sampling: {}, roots: {}, elicitation: {} });
    return { content: [text("all there")] };
  },
  bad_result: () => ({ content: "not-an-array" }),
  null_result: () => null,
  rpc_error: () => {
    throw new RpcError(-32042, "custom failure", { detail: [1, 2] });
  },
  rpc_invalid: () => {
    throw new RpcError(-32602, "Unknown widget", { uri: "widget://nope" });
  },
  throws: () => {
    throw new Error("s3cr3t-db-password leaked in a stack");
  },
  progress: async (_args, ctx) => {
    ctx.progress(1, 3, "one");
    await sleep(2);
    ctx.progress(2, 3);
    await sleep(2);
    ctx.progress(3, 3, "three");
    return { content: [text("progressed")] };
  },
  log: (_args, ctx) => {
    for (const level of ["debug", "info", "warning", "error"])
      ctx.log(level, { at: level }, "fixture");
    return { content: [text("logged")] };
  },
  ask: (_args, ctx) => {
    const state = ctx.state as { round?: number } | undefined;
    const confirm = ctx.inputResponses.confirm as { action?: string } | undefined;
    if (state?.round === 1 && confirm?.action === "accept")
      return { content: [text(JSON.stringify(report(ctx)))] };
    return ctx.inputRequired({ confirm: ELICIT_CONFIRM }, { round: 1 });
  },
  /** Reports what it got on every round: used to see what reached the handler. */
  inspect: (_args, ctx) => {
    if (ctx.state === undefined)
      return ctx.inputRequired({ confirm: ELICIT_CONFIRM }, "inspect-state");
    return { content: [text(JSON.stringify(report(ctx)))] };
  },
  ask_sampling: (_args, ctx) => ctx.inputRequired({ sample: SAMPLE }),
  ask_three: (_args, ctx) =>
    ctx.inputRequired({ confirm: ELICIT_CONFIRM, sample: SAMPLE, roots: LIST_ROOTS }),
  unknown_input: (_args, ctx) => ctx.inputRequired({ what: { method: "tools/list", params: {} } }),
  unsealable_state: (_args, ctx) => ctx.inputRequired({ confirm: ELICIT_CONFIRM }, { big: 10n }),
};

export interface Fixture {
  server: McpServer;
  /** Lines the server logged through its `log` option. */
  logs: string[];
}

export interface FixtureOptions {
  /** The `cache` option; `null` leaves it out. Default `CACHE`. */
  cache?: { ttlMs: number; cacheScope: "public" | "private" } | null;
  capabilities?: Record<string, unknown>;
  secret?: string;
  /** Further server options (`requestStateSingleUse`, `onDeprecated`, …). */
  server?: Record<string, unknown>;
}

export function makeFixture(options: FixtureOptions = {}): Fixture {
  const logs: string[] = [];
  const handlers: Handlers = {
    "tools/list": (params, ctx) => {
      if (params.cursor === "mrtr") return ctx.inputRequired({ confirm: ELICIT_CONFIRM }) as never;
      return {
        tools: Object.keys(TOOLS).map((name) => ({ name, inputSchema: { type: "object" } })),
      };
    },
    "tools/call": (params, ctx) => {
      const run = Object.hasOwn(TOOLS, params.name) ? TOOLS[params.name] : undefined;
      if (!run) throw new RpcError(-32602, `Unknown tool: ${params.name}`);
      return run(params.arguments ?? {}, ctx) as never;
    },
    // Handler-provided caching hints are kept.
    "resources/list": () => ({
      resources: [{ uri: "test://a", name: "a" }],
      ttlMs: 99,
      cacheScope: "public",
    }),
    "resources/read": (params) =>
      (params.uri === "test://bad"
        ? { contents: "not-an-array" }
        : { contents: [{ uri: params.uri, text: "hello" }] }) as never,
    "prompts/list": (params) =>
      (params.cursor === "bad"
        ? { prompts: "not-an-array" }
        : { prompts: [{ name: "p" }] }) as never,
    // A handler for a method whose capability (completions) is not declared.
    "completion/complete": () => ({ completion: { values: [] } }),
    // No handler for resources/templates/list or prompts/get, although their capabilities are declared.
  };
  const server = createServer({
    info: INFO,
    instructions: INSTRUCTIONS,
    capabilities: (options.capabilities ?? CAPABILITIES) as never,
    handlers,
    ...(options.cache === null ? {} : { cache: options.cache ?? CACHE }),
    ...(options.secret ? { secret: options.secret } : {}),
    log: (line) => void logs.push(line),
    ...options.server,
  });
  return { server, logs };
}

/** The `_meta` a conforming 2026-07-28 client sends; `capabilities` replaces the client capabilities. */
export function meta(
  capabilities: Record<string, unknown> = { elicitation: {}, roots: {} },
  extra: Record<string, unknown> = {},
): Msg {
  return {
    [PV]: REVISION,
    [CI]: { name: "test-client", version: "1.0.0" },
    [CC]: capabilities,
    ...extra,
  };
}

let nextId = 1;
/** A request with a fresh numeric id and a conforming `_meta` (unless params bring their own). */
export function rpc(method: string, params: Msg = {}, id: string | number = nextId++): Msg {
  return { jsonrpc: "2.0", id, method, params: { _meta: meta(), ...params } };
}

/** A tools/call request. */
export function call(name: string, extra: Msg = {}, id?: string | number): Msg {
  return rpc("tools/call", { name, ...extra }, id);
}
