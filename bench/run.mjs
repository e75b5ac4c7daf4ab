// `npm run bench`: every figure is ours beside anchors measured in the same run, printed as ratios.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { prepareRevision } from "./prepare.mjs";
import { benchCold } from "./cold.mjs";
import { benchSize } from "./size.mjs";
import { benchGenerate } from "./generate.mjs";

const revision = process.env.BENCH_REVISION ?? "2026-07-28";
const jsDir = prepareRevision(revision);

// Each validation group runs in a process of its own: the functions V8 optimised for one group, and
// the call sites it saw, otherwise change the next group's figures (ours against zod by up to 3×).
for (const group of ["steady", "sdk"]) {
  execFileSync(
    process.execPath,
    [join(import.meta.dirname, "validation.mjs"), group, revision, jsDir],
    { stdio: "inherit" },
  );
}
benchCold(revision, jsDir);
benchSize(revision, jsDir);
benchGenerate(revision);

const { benchServer } = await import("./server.mjs");
await benchServer(revision, jsDir);

const { benchLegacy, MODERN, LEGACY } = await import("./legacy.mjs");
const dualDir = prepareRevision(MODERN, LEGACY);

// The client groups' server is the dual-era one, so that SDK v1 (2025-11-25) is served too.
const { benchClient } = await import("./client.mjs");
await benchClient(dualDir);

await benchLegacy(dualDir);

const { benchClientLegacy } = await import("./client-legacy.mjs");
await benchClientLegacy(dualDir);

const { benchTools } = await import("./tools.mjs");
await benchTools(revision, jsDir);

const { benchHosting } = await import("./hosting.mjs");
await benchHosting(jsDir);

// Telemetry's cost: each contestant in fresh processes of its own, which the group starts itself.
execFileSync(process.execPath, [join(import.meta.dirname, "telemetry.mjs")], { stdio: "inherit" });
