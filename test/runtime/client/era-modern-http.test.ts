/**
 * `client.era` of a client that speaks only the modern era (`--legacy none`) over HTTP, which sends
 * its calls without probing first: null until the server answers a call, then "modern", as over
 * stdio; a call the server does not answer leaves it null.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createClient, httpTransport } from "../../../generated/2026-07-28/client.js";
import { INFO, results } from "../../helpers/client-fake.js";
import { rawServer, type RawServer } from "../../helpers/client-servers.js";

const servers: RawServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("client.era over HTTP, modern era only", () => {
  it("is null before any call and modern once the server answered one", async () => {
    const server = await rawServer((body) => ({
      body: JSON.stringify({ jsonrpc: "2.0", id: body.id, result: results.call() }),
    }));
    servers.push(server);
    const client = createClient({ transport: httpTransport(server.url), info: INFO });
    expect(client.era).toBeNull();
    await client.callTool({ name: "echo", arguments: {} });
    expect(client.era).toBe("modern");
    await client.close();
  });

  it("stays null when the call gets no answer", async () => {
    const server = await rawServer(() => ({ status: 503, body: "down" }));
    servers.push(server);
    const client = createClient({ transport: httpTransport(server.url), info: INFO });
    await expect(client.callTool({ name: "echo", arguments: {} })).rejects.toThrow();
    expect(client.era).toBeNull();
    await client.close();
  });
});
