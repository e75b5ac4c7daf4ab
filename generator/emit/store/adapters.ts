/**
 * The shared stores a server can be generated with (`--store`), each named as its runtime module is
 * in `RUNTIME_ADAPTERS` (emit/runtime.ts). The npm package that module imports reaches the output's
 * README through its import (emit/packages.ts), with the version mcp-gen's package.json pins. No
 * imports: the CLI reads it before loading any emitter.
 */
export const STORE_CHOICES = ["redis"] as const;
export type StoreAdapter = (typeof STORE_CHOICES)[number];
