/**
 * Which `fetch` the HTTP client transport of the client tests uses: the global one, or `nodeFetch()`
 * (runtime/client/http-node.ts) when a `*.node-fetch.test.ts` file asks, so that the same tests hold
 * on both.
 */
import { nodeFetch } from "../../generated/2026-07-28/client-node.js";

let chosen: typeof fetch | undefined;

/** Called by a `*.node-fetch.test.ts` file before it imports the tests it runs again. */
export function useNodeFetch(): void {
  chosen = nodeFetch();
}

/** `options` with the chosen `fetch` unless they name one themselves. */
export function withClientFetch<O extends { fetch?: typeof fetch }>(options?: O): O {
  return (chosen === undefined ? (options ?? {}) : { fetch: chosen, ...options }) as O;
}
