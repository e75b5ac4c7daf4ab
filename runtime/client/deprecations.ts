/**
 * Deprecation notices: each deprecated feature the client uses on the wire is reported once per
 * client, to `onDeprecated` or else as a line on the log. The notices are the modern revision's:
 * while the client talks to a server of an initialize era (whose revision deprecates none of them)
 * nothing is reported. Revision-independent; copied verbatim into generated output.
 */
export class Deprecations {
  /** Deprecation notices already reported by this client. */
  private readonly reported = new Set<string>();

  constructor(
    private readonly onDeprecated: ((notice: string) => void) | undefined,
    private readonly log: (message: string) => void,
    /** Whether the connection is now on a legacy session, whose revision the notices are not about. */
    private readonly legacy: () => boolean = () => false,
  ) {}

  /**
   * Reports `notice` (the description's text for a deprecated feature) the first time it is used
   * with a modern server; `undefined` is no notice.
   */
  report(notice: string | undefined): void {
    if (notice === undefined || this.reported.has(notice) || this.legacy()) return;
    this.reported.add(notice);
    if (this.onDeprecated) this.onDeprecated(notice);
    else this.log(`mcp client: deprecated feature used: ${notice}`);
  }
}
