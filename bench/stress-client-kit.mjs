// What the two client sides of `npm run stress` share: the client's name, the log it writes to, the
// memory figures, and the run itself (the attack, then one good request from the same process).
import { readFileSync } from "node:fs";

export const INFO = { name: "mcp-gen-stress-client", version: "1.0.0" };

/** A field of /proc/self/status (VmRSS, VmHWM), in MiB. */
export const status = (field) =>
  Number(
    new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? NaN,
  ) / 1024;

export const logs = [];
export const log = (line) => logs.push(line);

/** The value or the error of `promise`, never a rejection. */
export async function outcome(promise) {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

/**
 * Runs `attack`, then a good request to `goodUrl` from the same process (an attack that leaves the
 * client unable to serve it is not held), prints the verdict with the memory figures as one JSON
 * line, and exits.
 */
export async function runAttack(attack, { createClient, httpTransport }, goodUrl, beforeMiB) {
  const verdict = await attack();
  const good = createClient({ transport: httpTransport(goodUrl), info: INFO });
  const began = performance.now();
  const answer = await outcome(good.callTool({ name: "x" }));
  verdict.goodMs = answer.value?.content?.[0]?.text === "good" ? performance.now() - began : NaN;
  if (Number.isNaN(verdict.goodMs)) verdict.held = false;
  await good.close();
  if (global.gc) global.gc();
  console.log(
    JSON.stringify({ ...verdict, beforeMiB, peakMiB: status("VmHWM"), afterMiB: status("VmRSS") }),
  );
  process.exit(0);
}
