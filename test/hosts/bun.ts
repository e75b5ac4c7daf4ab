// Bun: `Bun.serve` with the server's `fetch`; prints the port it got.
import { hostServer } from "./fixture.js";

declare const Bun: {
  serve(options: { hostname: string; port: number; fetch: unknown }): { port: number };
};

const served = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: hostServer().fetch });
console.log(`PORT ${served.port}`);
