/**
 * Console capture for a server that speaks on stdout: while it runs, the `console` methods that
 * print to stdout (`log`, `info`, `debug`, `dir`, `table`, ...) write to its error stream instead,
 * and so do stray `process.stdout.write` calls when its output is the process's stdout, so that
 * nothing but protocol messages reaches the peer. Several servers may capture at once (the most
 * recent one's stream wins); the console is restored when the last one lets go. Apart from the
 * stdio framing because it is a process-wide patch, not part of reading or writing lines. Node
 * only. Revision-independent; copied verbatim into generated output.
 */
import type { Writable } from "node:stream";
import { nodeConsole } from "../shared/builtins.js";

/** The `console` methods that write to stdout. */
const STDOUT_METHODS = [
  "log",
  "info",
  "debug",
  "dir",
  "dirxml",
  "table",
  "group",
  "groupCollapsed",
  "groupEnd",
  "count",
  "countReset",
  // Not writers, but they share state with the writers below.
  "time",
  "timeLog",
  "timeEnd",
] as const;
type StdoutMethod = (typeof STDOUT_METHODS)[number];

interface Capture {
  readonly target: Writable;
  readonly console: Console;
  readonly stdout: boolean;
}

/** Servers currently capturing, most recent last; output goes to the most recent one's stream. */
const captures: Capture[] = [];
let restoreConsole: (() => void) | undefined;
/** `process.stdout.write` as it was before capture redirected it; the transport writes with it. */
let realStdoutWrite:
  | ((this: NodeJS.WriteStream, text: string, callback?: (error?: Error | null) => void) => boolean)
  | undefined;

/**
 * Sends the stdout-printing `console` methods (and, with `stdout`, `process.stdout.write`) to
 * `target` until the returned function is called.
 */
export function captureConsole(target: Writable, stdout: boolean): () => void {
  const capture: Capture = {
    target,
    console: new (nodeConsole().Console)({ stdout: target, stderr: target }),
    stdout,
  };
  captures.push(capture);
  if (captures.length === 1) installCapture();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    captures.splice(captures.indexOf(capture), 1);
    if (captures.length === 0) {
      restoreConsole?.();
      restoreConsole = undefined;
    }
  };
}

function installCapture(): void {
  const current = (): Capture | undefined => captures[captures.length - 1];
  const saved = new Map<StdoutMethod, unknown>();
  const replaced = new Map<StdoutMethod, unknown>();
  const methods = console as unknown as Record<StdoutMethod, (...args: unknown[]) => void>;
  for (const name of STDOUT_METHODS) {
    const original = methods[name];
    if (typeof original !== "function") continue;
    const replacement = (...args: unknown[]): void => {
      const capture = current();
      if (capture)
        (capture.console as unknown as Record<StdoutMethod, (...a: unknown[]) => void>)[name](
          ...args,
        );
      else original.apply(console, args);
    };
    saved.set(name, original);
    replaced.set(name, replacement);
    methods[name] = replacement;
  }

  // Stray `process.stdout.write` calls, for servers that speak on stdout.
  const stdout = process.stdout as unknown as { write: (...args: unknown[]) => boolean };
  const originalWrite = stdout.write;
  const redirectedWrite = function (this: unknown, ...args: unknown[]): boolean {
    const capture = [...captures].reverse().find((c) => c.stdout);
    if (!capture) return originalWrite.apply(process.stdout, args);
    return (capture.target as unknown as { write: (...a: unknown[]) => boolean }).write(...args);
  };
  stdout.write = redirectedWrite;
  realStdoutWrite = originalWrite as typeof realStdoutWrite;

  restoreConsole = () => {
    for (const [name, original] of saved) {
      // Leave alone a method someone else replaced after us.
      if (methods[name] === replaced.get(name))
        methods[name] = original as (...args: unknown[]) => void;
    }
    if (stdout.write === redirectedWrite) stdout.write = originalWrite;
    realStdoutWrite = undefined;
  };
}

/** Writes to the process's stdout past any capture: how a server that speaks on stdout writes its messages. */
export function writeStdout(text: string, callback?: (error?: Error | null) => void): boolean {
  return (realStdoutWrite ?? process.stdout.write).call(process.stdout, text, callback);
}
