/**
 * Deprecation reporting on the server: each deprecated feature a request actually uses on the wire
 * (a method, a `_meta` key, a log notification the revision deprecates) is reported once per
 * server, to `onDeprecated` or as a line on the log. The notices come from the generated
 * `Protocol`. Revision-independent; copied verbatim into generated output.
 */
import { own } from "../shared/jsonrpc.js";
import type { Protocol } from "./protocol.js";

/** Where notices go: the server's `onDeprecated` when given, else its log. */
export interface DeprecationsOptions {
  /** Called once per deprecated feature the first time it is used on the wire; default: a line on `log`. */
  onDeprecated?: (notice: string) => void;
}

export class Deprecations {
  /** Deprecation notices already reported by this server. */
  private readonly reported = new Set<string>();

  constructor(
    private readonly deprecated: Protocol["deprecated"],
    private readonly options: DeprecationsOptions,
    private readonly log: (message: string) => void,
  ) {}

  /** Reports a deprecated feature the first time it is used (an arrow: handed to contexts as is). */
  readonly report = (notice: string): void => {
    if (this.reported.has(notice)) return;
    this.reported.add(notice);
    if (this.options.onDeprecated) this.options.onDeprecated(notice);
    else this.log(`mcp-gen server: deprecated feature used: ${notice}`);
  };

  /** Reports the deprecated metadata keys and the deprecated method a request uses. */
  reportUse(method: string, meta: Record<string, unknown>): void {
    const { deprecated } = this;
    for (const key in deprecated.metaKeys)
      if (meta[key] !== undefined) this.report(deprecated.metaKeys[key]!);
    const notice = own(deprecated.methods, method);
    if (notice !== undefined) this.report(notice);
  }
}
