/**
 * The generated 2026-07-28 client's opt-in result cache (`runtime/client/cache.ts`), over a
 * scripted in-memory transport.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient } from "../../../generated/2026-07-28/client.js";
import { INFO, fakeTransport, results, type Answer, type Msg } from "../../helpers/client-fake.js";

afterEach(() => {
  vi.useRealTimers();
});

const ok = (result: Msg): Answer => ({ result });

describe("cache", () => {
  it("serves cacheable results until ttlMs passes, and only when enabled", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const answer = () => ok({ ...results.tools([]), ttlMs: 1000, cacheScope: "private" });
    const transport = fakeTransport(answer);
    const client = createClient({ transport, info: INFO, cache: true });
    await client.listTools();
    await client.listTools();
    expect(transport.sent).toHaveLength(1);
    vi.advanceTimersByTime(1001);
    await client.listTools();
    expect(transport.sent).toHaveLength(2);
    await client.listTools({ cursor: "x" });
    expect(transport.sent).toHaveLength(3);

    const uncached = fakeTransport(answer);
    const plain = createClient({ transport: uncached, info: INFO });
    await plain.listTools();
    await plain.listTools();
    expect(uncached.sent).toHaveLength(2);
  });

  it("never caches ttlMs 0, and keeps private entries per client", async () => {
    const zero = fakeTransport(() => ok(results.tools([])));
    const a = createClient({ transport: zero, info: INFO, cache: true });
    await a.listTools();
    await a.listTools();
    expect(zero.sent).toHaveLength(2);

    const privateAnswer = () => ok({ ...results.tools([]), ttlMs: 60_000, cacheScope: "private" });
    const shared = { ...fakeTransport(privateAnswer), cacheKey: "same-server" };
    const one = createClient({ transport: shared, info: INFO, cache: true });
    const other = createClient({ transport: shared, info: INFO, cache: true });
    await one.listTools();
    await other.listTools();
    expect(shared.sent).toHaveLength(2);
  });

  it("shares public entries between clients of the same server", async () => {
    const publicAnswer = () => ok({ ...results.tools([]), ttlMs: 60_000, cacheScope: "public" });
    const shared = { ...fakeTransport(publicAnswer), cacheKey: `public-${Math.random()}` };
    const one = createClient({ transport: shared, info: INFO, cache: true });
    const other = createClient({ transport: shared, info: INFO, cache: true });
    await one.listTools();
    await other.listTools();
    expect(shared.sent).toHaveLength(1);
  });
});
