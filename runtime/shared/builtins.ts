/**
 * Node's built-in modules, loaded on first use and only where the runtime has them. No module of
 * the runtime that a web-standard host loads may `import` one: workerd (without `nodejs_compat`) and
 * browsers refuse the whole module graph at load. `process.getBuiltinModule` (Node ≥ 20.16, Bun,
 * Deno) loads one at run time instead, and, unlike an ESM `import`, without evaluating every export
 * (for `node:crypto`, all of Web Crypto: start-up heap for nothing). Revision-independent; copied
 * verbatim into generated output.
 */
import type * as NodeCrypto from "node:crypto";

type Loader = { getBuiltinModule?: (id: string) => unknown };

function builtin<T>(id: string): T | undefined {
  const process = (globalThis as { process?: Loader }).process;
  return process?.getBuiltinModule?.(id) as T | undefined;
}

let crypto: typeof NodeCrypto | null | undefined;

/** `node:crypto`, or `undefined` on a runtime without it (use Web Crypto there). */
export function nodeCrypto(): typeof NodeCrypto | undefined {
  if (crypto === undefined) crypto = builtin<typeof NodeCrypto>("node:crypto") ?? null;
  return crypto ?? undefined;
}

/** A random v4 UUID: `node:crypto`'s where there is one, else Web Crypto's. */
export function randomUUID(): string {
  return (nodeCrypto() ?? globalThis.crypto).randomUUID();
}

/** `node:console`, for a console writing to a stream of the host's (stdio servers run on Node-compatible hosts only). */
export function nodeConsole(): typeof import("node:console") {
  const console = builtin<typeof import("node:console")>("node:console");
  if (console === undefined) throw new Error("mcp stdio: this runtime has no node:console");
  return console;
}

/** `node:http`, for a server that listens itself; an error naming the cause elsewhere. */
export function nodeHttp(): typeof import("node:http") {
  const http = builtin<typeof import("node:http")>("node:http");
  if (http === undefined)
    throw new Error(
      "mcp http: this runtime has no node:http to listen with; serve `fetch` (createFetchHandler) instead",
    );
  return http;
}
