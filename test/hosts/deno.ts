// Deno: `Deno.serve` with the server's `fetch`; prints the port it got.
import { hostServer } from "./fixture.js";

declare const Deno: {
  serve(
    options: { hostname: string; port: number; onListen(address: { port: number }): void },
    handler: unknown,
  ): unknown;
};

Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(`PORT ${port}`) },
  hostServer().fetch,
);
