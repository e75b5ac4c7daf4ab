/**
 * Multi round-trip (input_required) over every transport: the rules that need no earlier round as
 * table cases, then the rounds themselves: the sealed request state, the responses to what was asked
 * (and nothing else), tampered, foreign and stranger states.
 */
import { describe, expect, it } from "vitest";
import { SERVER_INFO, TRANSPORTS, type Msg } from "../../helpers/server-harness.js";
import {
  ELICIT_CONFIRM,
  INFO,
  call,
  makeFixture,
  meta,
  rpc,
} from "../../helpers/server-fixture.js";
import { dispatcherRules, type Case } from "../../helpers/dispatch-rules.js";

const CASES: Case[] = [
  // ---- input_required rules that need no earlier round --------------------------------------------
  {
    name: "input requests the client did not declare a capability for → -32021",
    message: call("ask_sampling"),
    status: 400,
    error: {
      code: -32021,
      message: "Missing required client capability",
      data: { requiredCapabilities: { sampling: {} } },
    },
  },
  {
    name: "every undeclared input capability is listed",
    message: rpc("tools/call", { _meta: meta({}), name: "ask_three" }),
    status: 400,
    error: {
      code: -32021,
      data: { requiredCapabilities: { elicitation: {}, sampling: {}, roots: {} } },
    },
  },
  {
    name: "input_required from a method that may not answer it (tools/list) → -32603, logged",
    message: rpc("tools/list", { cursor: "mrtr" }),
    status: 200, // internal errors travel in a 200 answer (dispatch.ts statusFor)
    error: { code: -32603, message: "Internal error" },
    check: (_exchange, { logs }) =>
      expect(logs.some((l) => l.includes("tools/list may not answer input_required"))).toBe(true),
  },
  {
    name: "a requestState that is not one of ours → -32602",
    message: call("ask", { requestState: "not-a-state" }),
    status: 400,
    error: {
      code: -32602,
      message: "Invalid params: requestState integrity check failed (malformed)",
    },
  },
  {
    name: "inputResponses that are not InputResponses → -32602 naming the pointer",
    message: call("ask", { inputResponses: { confirm: { action: "maybe" } } }),
    status: 400,
    error: { code: -32602, data: { path: "/inputResponses/confirm/action" } },
  },
  {
    name: "inputResponses: null → -32602",
    message: call("ask", { inputResponses: null }),
    status: 400,
    error: { code: -32602, data: { path: "/inputResponses" } },
  },
];

for (const transport of TRANSPORTS) {
  describe(`dispatcher rules over ${transport}`, () => {
    const rules = dispatcherRules(transport, CASES);

    describe("input_required (multi round-trip)", () => {
      async function firstRound(
        name = "ask",
        capabilities?: Record<string, unknown>,
      ): Promise<Msg> {
        const first = await rules.peer.send(
          capabilities ? rpc("tools/call", { _meta: meta(capabilities), name }) : call(name),
        );
        expect(first.response?.error).toBeUndefined();
        return first.response!.result as Msg;
      }

      it("round 1: input_required with the input requests and a sealed state, no caching hints", async () => {
        const result = await firstRound();
        expect(result).toEqual({
          resultType: "input_required",
          inputRequests: { confirm: ELICIT_CONFIRM },
          requestState: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
          _meta: { [SERVER_INFO]: INFO },
        });
      });

      it("round 2 completes with the state; keys not asked for are dropped (own keys only)", async () => {
        const { requestState } = await firstRound();
        const second = await rules.peer.send(
          call("ask", {
            requestState,
            inputResponses: {
              confirm: { action: "accept", content: { ok: true } },
              extra: { action: "decline" },
              toString: { action: "cancel" },
              constructor: { roots: [] },
            },
          }),
        );
        expect(second.response?.error).toBeUndefined();
        expect(second.response?.result.resultType).toBe("complete");
        const seen = JSON.parse(second.response!.result.content[0].text) as Msg;
        expect(seen).toEqual({
          state: { round: 1 },
          keys: ["confirm"],
          plainPrototype: true,
          confirm: { action: "accept", content: { ok: true } },
        });
      });

      it("a response of the wrong kind for what was asked → -32602 naming the pointer", async () => {
        const { requestState } = await firstRound();
        const bad = await rules.peer.send(
          call("ask", { requestState, inputResponses: { confirm: { roots: [] } } }),
        );
        expect(bad.response?.error).toEqual({
          code: -32602,
          message: "Invalid params: /inputResponses/confirm must have required property 'action'",
          data: { path: "/inputResponses/confirm" },
        });
        if (transport !== "stdio") expect(bad.status).toBe(400);
      });

      it("a tampered state → -32602", async () => {
        const { requestState } = await firstRound();
        const flipped = `${requestState.slice(0, 10)}${requestState[10] === "A" ? "B" : "A"}${requestState.slice(11)}`;
        for (const state of [`${requestState}-TAMPERED`, flipped]) {
          const answer = await rules.peer.send(
            call("ask", {
              requestState: state,
              inputResponses: { confirm: { action: "accept", content: { ok: true } } },
            }),
          );
          expect(answer.response?.error?.code).toBe(-32602);
          expect(answer.response?.error?.message).toMatch(
            /^Invalid params: requestState integrity check failed \((tampered|malformed)\)$/,
          );
        }
      });

      it("a state sealed for another tool → -32602 (foreign)", async () => {
        const { requestState } = await firstRound("ask");
        const answer = await rules.peer.send(
          call("inspect", {
            requestState,
            inputResponses: { confirm: { action: "accept", content: { ok: true } } },
          }),
        );
        expect(answer.response?.error).toEqual({
          code: -32602,
          message: "Invalid params: requestState integrity check failed (foreign)",
        });
      });

      it("a state sealed by another server (another secret) → -32602 (tampered)", async () => {
        const { requestState } = await firstRound("ask");
        const stranger = makeFixture();
        const outcome = await stranger.server.dispatcher.handle(call("ask", { requestState }), {
          notify: () => undefined,
          signal: new AbortController().signal,
        });
        expect(outcome.response).toMatchObject({
          error: {
            code: -32602,
            message: "Invalid params: requestState integrity check failed (tampered)",
          },
        });
      });

      it("without inputResponses the handler asks again", async () => {
        const { requestState } = await firstRound();
        const again = await rules.peer.send(call("ask", { requestState }));
        expect(again.response?.result).toMatchObject({
          resultType: "input_required",
          inputRequests: { confirm: ELICIT_CONFIRM },
        });
      });
    });
  });
}
