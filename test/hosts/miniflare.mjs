// Runs a bundled Worker in workerd through Miniflare (which demands Node 22: started with
// tools/node22's binary) on a loopback port; prints its URL, and stops when its stdin closes.
import { dirname } from "node:path";
import { Miniflare } from "miniflare";

const [scriptPath] = process.argv.slice(2);
const mf = new Miniflare({
  modules: true,
  scriptPath,
  // Module names relative to the bundle's folder (workerd refuses a path out of its root).
  modulesRoot: dirname(scriptPath),
  compatibilityDate: "2026-07-01",
  // No nodejs_compat: the server must load without any node: module.
  compatibilityFlags: [],
  host: "127.0.0.1",
  port: 0,
});
const url = await mf.ready;
console.log(`URL ${url.href}`);
process.stdin.resume();
process.stdin.on("end", () => void mf.dispose().then(() => process.exit(0)));
