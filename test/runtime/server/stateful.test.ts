/**
 * A stateful revision (2025-11-25) over every transport: the initialize handshake, no per-request
 * `_meta`, params validation, capabilities, progress and ping.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer as createStatefulServer } from "../../../generated/2025-11-25/index.js";
import { TRANSPORTS, connect, type Msg, type Peer } from "../../helpers/server-harness.js";

// ---------------------------------------------------------------------------
// A stateful revision: 2025-11-25 follows the initialize handshake and has no per-request _meta.
// ---------------------------------------------------------------------------

const STATEFUL = "2025-11-25";

function statefulFixture() {
  const logs: string[] = [];
  const server = createStatefulServer({
    info: { name: "stateful-fixture", version: "1.0.0" },
    instructions: "Stateful instructions.",
    capabilities: { tools: {} },
    handlers: {
      "tools/list": () => ({
        tools: [{ name: "needs_sampling", inputSchema: { type: "object" } }],
      }),
      "tools/call": async (params, ctx) => {
        if (params.name === "needs_sampling") ctx.requireCapabilities({ sampling: {} });
        if (params.name === "progress") {
          ctx.progress(1, 2);
          ctx.progress(2, 2);
        }
        return { content: [{ type: "text", text: `called ${params.name}` }] };
      },
    },
    log: (line) => void logs.push(line),
  });
  return { server, logs };
}

for (const transport of TRANSPORTS) {
  describe(`stateful revision ${STATEFUL} over ${transport}`, () => {
    let peer: Peer;
    beforeAll(async () => {
      peer = await connect(transport, statefulFixture().server as never, {
        protocolVersion: STATEFUL,
      });
    });
    afterAll(async () => {
      await peer.close();
    });

    const plain = (
      method: string,
      params?: Msg,
      id: string | number = `${method}-${Math.random()}`,
    ): Msg =>
      params === undefined
        ? { jsonrpc: "2.0", id, method }
        : { jsonrpc: "2.0", id, method, params };
    const initialize = (protocolVersion: string, capabilities: Msg = {}) =>
      plain(
        "initialize",
        { protocolVersion, capabilities, clientInfo: { name: "c", version: "1" } },
        "init",
      );

    it("initialize answers protocolVersion, capabilities, serverInfo (and instructions)", async () => {
      const answer = await peer.send(initialize(STATEFUL));
      expect(answer.response).toEqual({
        jsonrpc: "2.0",
        id: "init",
        result: {
          protocolVersion: STATEFUL,
          capabilities: { tools: {} },
          serverInfo: { name: "stateful-fixture", version: "1.0.0" },
          instructions: "Stateful instructions.",
        },
      });
      if (transport !== "stdio") expect(answer.status).toBe(200);
    });

    it("initialize with a version the server does not speak answers with its own", async () => {
      const answer = await peer.send(initialize("1999-01-01"));
      expect(answer.response?.result?.protocolVersion).toBe(STATEFUL);
    });

    it("notifications/initialized gets no answer", async () => {
      const answer = await peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      expect(answer.response).toBeNull();
      if (transport !== "stdio") expect(answer.status).toBe(202);
    });

    it("requests work without _meta, and results carry no resultType", async () => {
      const list = await peer.send(plain("tools/list"));
      expect(list.response?.result).toEqual({
        tools: [{ name: "needs_sampling", inputSchema: { type: "object" } }],
      });
      const called = await peer.send(plain("tools/call", { name: "echo" }));
      expect(called.response?.result).toEqual({ content: [{ type: "text", text: "called echo" }] });
    });

    it("params are still validated (-32602 with the pointer), unknown methods are -32601", async () => {
      const bad = await peer.send(plain("tools/call", { name: 5 }, "bad-name"));
      expect(bad.response?.error).toEqual({
        code: -32602,
        message: "Invalid params: /name must be string",
        data: { path: "/name" },
      });
      const unknown = await peer.send(plain("server/discover", {}, "discover"));
      expect(unknown.response?.error).toEqual({
        code: -32601,
        message: "Method not found: server/discover",
      });
      if (transport !== "stdio") expect(unknown.status).toBe(404);
    });

    it("a missing client capability is the revision's -32602 with requiredCapabilities", async () => {
      const answer = await peer.send(plain("tools/call", { name: "needs_sampling" }, "needs"));
      expect(answer.response?.error).toEqual({
        code: -32602,
        message: "Missing required client capability",
        data: { requiredCapabilities: { sampling: {} } },
      });
    });

    it("ctx.progress sends notifications/progress when _meta.progressToken is set", async () => {
      const answer = await peer.send(
        plain("tools/call", { name: "progress", _meta: { progressToken: "t" } }, "progress"),
      );
      expect(answer.notifications.map((n) => n.params)).toEqual([
        { progressToken: "t", progress: 1, total: 2 },
        { progressToken: "t", progress: 2, total: 2 },
      ]);
    });

    it("ping is answered with an empty result without a handler", async () => {
      const answer = await peer.send(plain("ping", undefined, "ping"));
      expect(answer.response?.result).toEqual({});
    });

    if (transport === "stdio") {
      // On stdio one connection is one session: the handshake's capabilities hold for later requests.
      it("capabilities declared in initialize are seen by later requests on the same connection", async () => {
        await peer.send(initialize(STATEFUL, { sampling: {} }));
        const answer = await peer.send(
          plain("tools/call", { name: "needs_sampling" }, "needs-after-init"),
        );
        expect(answer.response?.result?.content).toEqual([
          { type: "text", text: "called needs_sampling" },
        ]);
      });
    }
  });
}
