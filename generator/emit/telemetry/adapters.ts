/**
 * The telemetry libraries a server and client can be generated with (`--telemetry`), each named as
 * its runtime module is in `RUNTIME_ADAPTERS` (emit/runtime.ts). With one, the generated server
 * and client record through it by default; the npm package its module imports reaches the
 * output's README through that import (emit/packages.ts). No imports: the CLI reads it before
 * loading any emitter.
 */
export const TELEMETRY_CHOICES = ["otel"] as const;
export type TelemetryAdapter = (typeof TELEMETRY_CHOICES)[number];
