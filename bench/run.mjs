// `npm run bench`: every figure is ours beside anchors measured in the same run, printed as ratios.
import { prepareRevision } from "./prepare.mjs";
import { benchValidation, benchValidationSdk } from "./validation.mjs";
import { benchCold } from "./cold.mjs";
import { benchSize } from "./size.mjs";
import { benchGenerate } from "./generate.mjs";

const revision = process.env.BENCH_REVISION ?? "2026-07-28";
const jsDir = prepareRevision(revision);

const { messages, results } = await benchValidation(revision, jsDir);
console.log(`\nValidation, steady state (${revision}, ${messages} official examples, ns per message)`);
const rows = Object.entries(results).map(([name, ns]) => ({
  anchor: name,
  "ns/message": ns.toFixed(1),
  "ours ÷ this": (results.ours / ns).toFixed(3),
}));
console.table(rows);
console.log(`target: ours ≤ 0.3× Ajv — measured ${(results.ours / results.ajv).toFixed(3)}×`);
await benchValidationSdk(revision, jsDir);
benchCold(revision, jsDir);
benchSize(revision, jsDir);
benchGenerate(revision);

const { benchServer } = await import("./server.mjs");
await benchServer(revision, jsDir);

const { benchClient } = await import("./client.mjs");
await benchClient(revision, jsDir);
