/**
 * Reading the HTTP transport's answers: SSE events parsed as their text arrives, one stream read
 * to its end (each event's JSON message handed on), a JSON body read within its size limit, and
 * the small helpers both need. Browser-safe (no `Buffer`: the client runs there too).
 * Revision-independent; copied verbatim into generated output.
 */
import { TransportError } from "./errors.js";
import { nestsDeeperThan } from "../shared/jsonrpc.js";

/**
 * Reads one SSE stream to its end, handing each event's message to `onMessage` until it returns
 * true; empty events (a server priming its stream) are skipped, an event that is not JSON is
 * skipped with a line on `log`.
 */
export async function readEvents(
  response: Response,
  events: SseEvents,
  signal: AbortSignal,
  onMessage: (value: unknown) => boolean | void,
  what: { stream: string; event: string },
  maxDepth: number,
  log: (message: string) => void,
): Promise<void> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const chunk = await nextChunk(reader, signal, (cause) => {
        return new TransportError(`${what.stream} broke`, response.status, { cause });
      });
      const text = chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      if (!events.push(text, chunk.done))
        throw new TransportError(
          `an SSE event ${what.event} is larger than ${events.max} characters`,
          response.status,
        );
      for (let data = events.next(); data !== null; data = events.next()) {
        if (data.trim() === "") continue;
        if (nestsDeeperThan(data, maxDepth))
          throw new TransportError(
            `an SSE event ${what.event} nests more than ${maxDepth} levels deep`,
            response.status,
          );
        let value: unknown;
        try {
          value = JSON.parse(data);
        } catch {
          log(`mcp http client: skipped an SSE event that is not JSON: ${data.slice(0, 200)}`);
          continue;
        }
        if (onMessage(value) === true) return;
      }
      if (chunk.done) return;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** The body of an answer as text, read up to `max` bytes; `describe` names it in errors. */
export async function readBody(
  response: Response,
  max: number,
  signal: AbortSignal,
  describe: string,
): Promise<string> {
  const tooLarge = () =>
    new TransportError(`${describe} is larger than ${max} bytes`, response.status);
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const chunk = await nextChunk(reader, signal, (cause) => {
        return new TransportError(`reading ${describe} failed`, response.status, { cause });
      });
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > max) throw tooLarge();
      chunks.push(chunk.value);
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  // Joined and decoded with what browsers have too (no `Buffer`: this client runs there).
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return UTF8.decode(bytes);
}

/** Decoding a whole body keeps no state between calls: one decoder serves every body. */
const UTF8 = new TextDecoder();

export function contentType(response: Response): string {
  return (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Resolves after `ms`, or rejects when `signal` aborts first. */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** The wait before reconnecting: the server's `retry`, never below `floor`; else `current`. */
export function reconnectDelay(events: SseEvents, current: number, floor: number): number {
  if (events.retry === null) return current;
  return Math.max(events.retry, floor);
}

/** The next chunk of an answer: a stream that breaks is `broken(cause)`, unless the caller gave up. */
async function nextChunk(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  signal: AbortSignal,
  broken: (cause: unknown) => TransportError,
): Promise<Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>> {
  try {
    return await reader.read();
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw broken(error);
  }
}

/**
 * The `data` of SSE events, parsed as text arrives in one pass: each piece of text is scanned once
 * for line ends, a line cut by a chunk boundary is kept as pieces (joined when it ends), and an
 * event is bounded in size while it accumulates.
 */
export class SseEvents {
  /** The current line so far, in pieces, and its length. */
  private line: string[] = [];
  private lineLength = 0;
  /** The `data` lines of the event being read, and their length. */
  private data: string[] = [];
  private dataLength = 0;
  /** The last text ended in CR: an LF opening the next one belongs to that line end. */
  private afterCr = false;
  /** Complete events' data, oldest first. */
  private readonly ready: string[] = [];
  /** The last event id the stream named (for `Last-Event-ID`), and the reconnection delay it asked for. */
  lastId: string | null = null;
  retry: number | null = null;

  constructor(readonly max: number) {}

  /** Takes the next text (`end`: the stream ended after it); false once an event is too large. */
  push(text: string, end: boolean): boolean {
    if (text.length === 0 && !end) return true;
    let start = 0;
    if (this.afterCr && text.charCodeAt(0) === 0x0a) start = 1;
    this.afterCr = false;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 0x0a && c !== 0x0d) continue;
      if (!this.endLine(text.slice(start, i))) return false;
      if (c === 0x0d) {
        if (i + 1 === text.length) this.afterCr = true;
        else if (text.charCodeAt(i + 1) === 0x0a) i++;
      }
      start = i + 1;
    }
    if (start < text.length) {
      this.line.push(text.slice(start));
      this.lineLength += text.length - start;
      if (this.lineLength + this.dataLength > this.max) return false;
    }
    if (end) {
      // An unterminated last line still counts; the event it ends is dispatched.
      if (this.lineLength > 0 && !this.endLine("")) return false;
      if (this.data.length > 0) this.endEvent();
    }
    return true;
  }

  /** The data of the next complete event, or null. */
  next(): string | null {
    return this.ready.shift() ?? null;
  }

  private endLine(tail: string): boolean {
    let line = tail;
    if (this.line.length > 0) {
      this.line.push(tail);
      line = this.line.join("");
      this.line = [];
      this.lineLength = 0;
    }
    if (line === "") {
      if (this.data.length > 0) this.endEvent();
      return true;
    }
    if (line.charCodeAt(0) === 0x3a) return true; // a comment
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    if (field === "id" && !value.includes("\0")) this.lastId = value;
    else if (field === "retry" && /^\d{1,9}$/.test(value)) this.retry = Number(value);
    if (field !== "data") return true;
    this.data.push(value);
    this.dataLength += value.length + 1;
    return this.dataLength <= this.max;
  }

  private endEvent(): void {
    this.ready.push(this.data.join("\n"));
    this.data = [];
    this.dataLength = 0;
  }
}
