/**
 * Console capture on its own (`runtime/server/console-capture.ts`): the stdout-printing console
 * methods go to the capturing server's stream, the most recent capture wins, the console is
 * restored when the last one lets go (a method someone else replaced meanwhile is left alone), and
 * `process.stdout.write` is redirected only for a capture that asked for it, while `writeStdout`
 * always reaches the real stdout.
 */
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { captureConsole, writeStdout } from "../../../runtime/server/console-capture.js";

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

const releases: Array<() => void> = [];
afterEach(() => {
  for (const release of releases.splice(0).reverse()) release();
});

describe("captureConsole", () => {
  it("sends console.log and its kin to the capturing stream until released", async () => {
    const original = console.log;
    const target = sink();
    const release = captureConsole(target.stream, false);
    releases.push(release);
    expect(console.log).not.toBe(original);
    console.log("one");
    console.info("two");
    console.table([{ a: 1 }]);
    release();
    release(); // twice is harmless
    expect(console.log).toBe(original);
    await new Promise((resolve) => setImmediate(resolve));
    expect(target.text()).toContain("one\n");
    expect(target.text()).toContain("two\n");
    expect(target.text()).toContain("│ a │");
  });

  it("writes to the most recent capture, and keeps capturing while any is held", async () => {
    const original = console.log;
    const first = sink();
    const second = sink();
    const releaseFirst = captureConsole(first.stream, false);
    const releaseSecond = captureConsole(second.stream, false);
    releases.push(releaseFirst, releaseSecond);
    console.log("to second");
    releaseSecond();
    console.log("to first");
    expect(console.log).not.toBe(original);
    releaseFirst();
    expect(console.log).toBe(original);
    await new Promise((resolve) => setImmediate(resolve));
    expect(second.text()).toBe("to second\n");
    expect(first.text()).toBe("to first\n");
  });

  it("leaves alone a console method someone else replaced while capturing", () => {
    const original = console.debug;
    const release = captureConsole(sink().stream, false);
    releases.push(release);
    const theirs = (): void => {};
    console.debug = theirs;
    release();
    expect(console.debug).toBe(theirs);
    console.debug = original;
  });

  it("redirects process.stdout.write only for a capture that asks, and writeStdout goes past it", async () => {
    const original = process.stdout.write;
    const target = sink();
    const release = captureConsole(target.stream, true);
    releases.push(release);
    expect(process.stdout.write).not.toBe(original);
    process.stdout.write("stray\n");
    // The real stdout is vitest's; writing an empty string reaches it without printing anything.
    expect(writeStdout("")).toBe(true);
    release();
    expect(process.stdout.write).toBe(original);
    await new Promise((resolve) => setImmediate(resolve));
    expect(target.text()).toBe("stray\n");

    // The most recent capture did not ask for stdout: a stray write goes to the one that did.
    const other = sink();
    const stdoutCapture = captureConsole(other.stream, true);
    releases.push(stdoutCapture);
    const quietSink = sink();
    const quiet = captureConsole(quietSink.stream, false);
    releases.push(quiet);
    process.stdout.write("to the stdout capture\n");
    console.log("to the most recent");
    quiet();
    stdoutCapture();
    await new Promise((resolve) => setImmediate(resolve));
    expect(quietSink.text()).toBe("to the most recent\n");
    expect(other.text()).toBe("to the stdout capture\n");
  });
});
