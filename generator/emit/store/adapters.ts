/**
 * The shared stores a server can be generated with (`--store`), each the runtime module emitted for
 * it. The npm package that module imports reaches the output's README through its import
 * (emit/packages.ts), with the version mcp-gen's package.json pins. No imports: the CLI reads it
 * before loading any emitter.
 */
export const STORE_ADAPTERS = {
  redis: { adapter: "redis" },
} as const;
export type StoreAdapter = keyof typeof STORE_ADAPTERS;
export const STORE_CHOICES = Object.keys(STORE_ADAPTERS) as StoreAdapter[];
