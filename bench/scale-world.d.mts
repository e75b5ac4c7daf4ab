import type { ChildProcess } from "node:child_process";

/** A started program, stopped (SIGKILL) by `stop`. */
export interface Started {
  child: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

export function findBinary(name: string): string | undefined;
export function missingBinaries(): string | undefined;
export function freePort(): Promise<number>;
export function waitForLine(
  child: ChildProcess,
  pattern: RegExp,
  ms?: number,
): Promise<RegExpMatchArray>;
export function stopper(child: ChildProcess): () => Promise<void>;
export function startRedis(dir: string, port?: number): Promise<Started & { url: string }>;
export function startHaproxy(
  dir: string,
  backends: readonly number[],
): Promise<Started & { url: string }>;
