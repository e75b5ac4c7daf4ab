/**
 * Newline-delimited framing, shared by the stdio server (`stdio.ts`) and the stdio client
 * (`client-stdio.ts`), so that both ends read lines by the same rules: a line ends at LF, a CR
 * before the LF is not part of it, and a line longer than the cap is reported and dropped as it
 * arrives, never held whole, while the line after it is read as usual. Each byte is scanned once;
 * a line that arrives in one chunk is handed on as a range of that chunk, without a copy. Node only
 * (`Buffer`). Revision-independent; copied verbatim into generated output.
 */

/** What a `LineFramer` hands its lines to. */
export interface LineSink {
  /**
   * One line: `bytes[start, end)`, without its LF or the CR before it. The bytes belong to the
   * chunk or to the framer: read them during the call, never keep a view of them.
   */
  line(bytes: Buffer, start: number, end: number): void;
  /** A line went over the cap and is dropped: called once per such line, as soon as it is over. */
  tooLong(): void;
}

/** The largest buffer for the start of a line kept from one line to the next. */
const RETAINED_CARRY_BYTES = 64 * 1024;
const LF = 0x0a;
const CR = 0x0d;

export class LineFramer {
  /**
   * The start of a line that began in an earlier chunk, copied into a buffer kept from line to
   * line (up to RETAINED_CARRY_BYTES; a larger one, grown for one long line, is let go after it).
   */
  private carry: Buffer | null = null;
  private carried = 0;
  /** Inside an over-long line: everything up to the next newline is dropped. */
  private discarding = false;
  private stopped = false;

  /** `maxLineBytes`: the longest line accepted, in bytes, not counting its line terminator. */
  constructor(
    readonly maxLineBytes: number,
    private readonly sink: LineSink,
  ) {
    if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1)
      throw new RangeError("maxLineBytes must be a positive integer");
  }

  /** Reads one chunk, handing on every line it completes; stops early once `stop()` is called. */
  push(chunk: Uint8Array | string): void {
    if (this.stopped) return;
    const bytes =
      typeof chunk === "string"
        ? Buffer.from(chunk, "utf8")
        : Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    while (start < bytes.length && !this.stopped) {
      const newline = bytes.indexOf(LF, start);
      const end = newline === -1 ? bytes.length : newline;
      if (this.discarding) {
        if (newline === -1) break;
        this.discarding = false;
        start = newline + 1;
        continue;
      }
      const length = this.carried + (end - start);
      const last =
        end > start ? bytes[end - 1] : this.carried > 0 ? this.carry![this.carried - 1] : undefined;
      if (this.tooLong(length, last)) {
        this.carried = 0;
        this.releaseCarry();
        this.sink.tooLong();
        if (newline === -1) {
          this.discarding = true;
          break;
        }
        start = newline + 1;
        continue;
      }
      if (newline === -1) {
        // Copied: keeping the chunk would keep all of it alive.
        this.keep(bytes, start, end);
        break;
      }
      if (this.carried === 0) {
        this.emit(bytes, start, end);
      } else {
        this.keep(bytes, start, end);
        const lineLength = this.carried;
        this.carried = 0;
        // Read before anything else can touch the carry buffer.
        this.emit(this.carry!, 0, lineLength);
        this.releaseCarry();
      }
      start = newline + 1;
    }
  }

  /** The input has ended: an unterminated last line is still a line. */
  end(): void {
    if (this.stopped || this.discarding || this.carried === 0) return;
    const lineLength = this.carried;
    this.carried = 0;
    this.emit(this.carry!, 0, lineLength);
  }

  /** Reads no more: a line in progress is forgotten, and later chunks are ignored. */
  stop(): void {
    this.stopped = true;
    this.carried = 0;
    this.carry = null;
  }

  /** Whether a line of `length` bytes ending in `last` is over the cap (a trailing CR is free). */
  private tooLong(length: number, last: number | undefined): boolean {
    return length > this.maxLineBytes && !(length === this.maxLineBytes + 1 && last === CR);
  }

  private emit(bytes: Buffer, start: number, end: number): void {
    if (end > start && bytes[end - 1] === CR) end--;
    this.sink.line(bytes, start, end);
  }

  /** Appends `bytes[start, end)` to the carried start of a line. */
  private keep(bytes: Buffer, start: number, end: number): void {
    const needed = this.carried + (end - start);
    if (this.carry === null || this.carry.length < needed) {
      // Doubling, capped at the longest line there can be (a CR past the cap included).
      const size = Math.max(
        needed,
        Math.min((this.carry?.length ?? 0) * 2, this.maxLineBytes + 1),
        1024,
      );
      const grown = Buffer.allocUnsafeSlow(size);
      if (this.carry !== null && this.carried > 0) this.carry.copy(grown, 0, 0, this.carried);
      this.carry = grown;
    }
    bytes.copy(this.carry, this.carried, start, end);
    this.carried = needed;
  }

  /** Lets go of a carry buffer grown large for one long line, once no line is carried in it. */
  private releaseCarry(): void {
    if (this.carried === 0 && this.carry !== null && this.carry.length > RETAINED_CARRY_BYTES)
      this.carry = null;
  }
}
