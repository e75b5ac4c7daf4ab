/**
 * Multi round-trip (`input_required`) on the server: a handler's `input_required` answer becomes a
 * result carrying the input requests and a sealed state (bound to the call that made it, see
 * state.ts); the retry that brings the client's responses back is resumed from that state, and its
 * responses are checked against what was asked. The revision's field names, input request methods
 * and error codes come from the generated `Protocol`. Revision-independent; copied verbatim into
 * generated output.
 */
import {
  ErrorCode,
  isRecord,
  own,
  SERVER_BUSY,
  type JsonRpcErrorObject,
  type JsonRpcRequest,
} from "../shared/jsonrpc.js";
import {
  canonicalJson,
  openStateNow,
  randomNonce,
  randomSecret,
  sealStateNow,
  type OpenResult,
} from "./state.js";
import { checkInput } from "../schema/checks.js";
import { isThenable } from "./transport.js";
import { isStoreUnavailable, STORE_AWAY_MESSAGE, STORE_KEYS, type Store } from "./store.js";
import type { Protocol } from "./protocol.js";
import type { MethodSpec } from "../shared/protocol.js";

/** Where a retried request stands: the state its last round sealed and the responses to what it asked. */
export interface Resumed {
  state: unknown;
  inputResponses: Record<string, unknown>;
}

/** What the rounds need from the dispatcher. */
export interface RoundsHooks {
  /** Reports a deprecated feature used on the wire. */
  reportDeprecated(notice: string): void;
  log(message: string): void;
}

/** How `requestState` is sealed and opened: the server's options (`DispatcherOptions` extends these). */
export interface RoundsOptions {
  /**
   * Secret sealing `requestState` (at least 16 bytes, checked when the server is made); share it
   * between processes behind one load balancer. Default: random per process.
   */
  secret?: string | Uint8Array;
  /**
   * How long a sealed `requestState` stays valid. Default 10 minutes. A state is bound to the
   * method, its target, a digest of the request's other params (everything but `_meta`,
   * `inputResponses` and `requestState`) and the authenticated principal when there is one; within
   * this window it can be presented again for that same call (the replay window), unless
   * `requestStateSingleUse` is set.
   */
  requestStateTtlMs?: number;
  /**
   * Opens each sealed `requestState` once: a second presentation within its time to live is
   * refused (-32602). Without a `store` the record is per process (processes behind one load
   * balancer do not share it) and holds the most recent `maxSingleUseStates` states (default
   * 100,000); with one, it is the store's, shared by every process. Default false.
   */
  requestStateSingleUse?: boolean;
  maxSingleUseStates?: number;
  /** Shared with the other processes: single-use states are claimed there. */
  store?: Store;
}

const INPUT_REQUIRED = Symbol("inputRequired");

export interface InputRequiredAnswer {
  readonly [INPUT_REQUIRED]: true;
  inputRequests: Record<string, { method: string; params?: Record<string, unknown> }>;
  state: unknown;
}

/** The answer a handler gives to ask for input (`ctx.inputRequired`). */
export function inputRequiredAnswer(
  inputRequests: InputRequiredAnswer["inputRequests"],
  state: unknown,
): InputRequiredAnswer {
  return { [INPUT_REQUIRED]: true, inputRequests, state };
}

export function isInputRequired(value: unknown): value is InputRequiredAnswer {
  return isRecord(value) && (value as Partial<InputRequiredAnswer>)[INPUT_REQUIRED] === true;
}

type ResumeResult = Resumed | { error: JsonRpcErrorObject } | null;

const DEFAULT_TTL_MS = 600_000;

/** The error answered when a handler asked for what cannot be asked (logged with the reason). */
const INTERNAL: { error: JsonRpcErrorObject } = Object.freeze({
  error: Object.freeze({ code: ErrorCode.InternalError, message: "Internal error" }),
});

/** What `ask` gives: the `input_required` result, or the error answering the request instead. */
export type Asked = { result: Record<string, unknown> } | { error: JsonRpcErrorObject };

export class InputRounds {
  /** The secret sealing states, once made (see `secret`). */
  private sealingSecret: string | Uint8Array | undefined;
  /** Single use: states opened, by their tag, with when each expires, oldest first. */
  private readonly opened = new Map<string, number>();

  constructor(
    private readonly protocol: Protocol,
    private readonly options: RoundsOptions,
    private readonly hooks: RoundsHooks,
  ) {}

  /**
   * The retry of an earlier round: its sealed state opened and its input responses checked (only
   * what that round asked for is kept). `null` on a first round (neither is present); an error
   * when the state does not open for this call or a response is not what was asked. A promise
   * only when single use is kept in a shared store, or the runtime has only Web Crypto.
   */
  resume(
    request: JsonRpcRequest,
    spec: MethodSpec,
    params: Record<string, unknown>,
    principal: string | undefined,
  ): ResumeResult | Promise<ResumeResult> {
    const envelope = this.protocol.envelope;
    const sealed = envelope.requestState === null ? undefined : params[envelope.requestState];
    const responses =
      envelope.inputResponses === null ? undefined : params[envelope.inputResponses];
    if (typeof sealed !== "string" && !isRecord(responses)) return null;
    if (typeof sealed === "string") {
      const opened = openStateNow(sealed, {
        secret: this.secret,
        audience: this.audience(request.method, spec, params, principal),
      });
      // A promise where the runtime has only Web Crypto.
      if (isThenable(opened))
        return Promise.resolve(opened).then((settled) => this.unsealed(sealed, settled, responses));
      return this.unsealed(sealed, opened, responses);
    }
    return this.responses(responses, undefined, null);
  }

  /** The retry's sealed state, opened: refused, or its payload with the responses checked. */
  private unsealed(
    sealed: string,
    opened: OpenResult,
    responses: unknown,
  ): ResumeResult | Promise<ResumeResult> {
    const envelope = this.protocol.envelope;
    const refused = (reason: string): { error: JsonRpcErrorObject } => ({
      error: {
        code: ErrorCode.InvalidParams,
        message: `Invalid params: ${envelope.requestState} integrity check failed (${reason})`,
      },
    });
    if (!opened.ok) return refused(opened.reason);
    const reason = this.replayed(sealed);
    const payload = opened.payload as { s?: unknown; k?: Record<string, string> };
    if (isThenable(reason))
      return reason.then(
        (shared) =>
          shared !== null ? refused(shared) : this.responses(responses, payload.s, payload.k),
        // The shared store that marks single use is away: busy, retry later (the state is still unopened).
        (error: unknown) => {
          if (!isStoreUnavailable(error)) throw error;
          return { error: { code: SERVER_BUSY, message: STORE_AWAY_MESSAGE } };
        },
      );
    if (reason !== null) return refused(reason);
    return this.responses(responses, payload.s, payload.k ?? null);
  }

  /** The retry's state and its input responses, checked against what was asked. */
  private responses(
    responses: unknown,
    state: unknown,
    asked: Record<string, string> | null | undefined,
  ): ResumeResult {
    let inputResponses: Record<string, unknown> = {};
    if (isRecord(responses)) {
      const checked = this.inputResponses(responses, asked ?? null);
      if ("error" in checked)
        return {
          error: {
            code: ErrorCode.InvalidParams,
            message: checked.error,
            data: { path: checked.path },
          },
        };
      inputResponses = checked.responses;
    }
    return { state, inputResponses };
  }

  /**
   * The `input_required` result asking the client for `answer.inputRequests`, with the handler's
   * state sealed for the retry; or the error answering the request instead (the client lacks a
   * capability an input request needs, or the handler asked for what the revision cannot carry).
   */
  ask(
    request: JsonRpcRequest,
    spec: MethodSpec,
    params: Record<string, unknown>,
    clientCapabilities: Record<string, unknown>,
    answer: InputRequiredAnswer,
    principal: string | undefined,
  ): Asked | Promise<Asked> {
    const { protocol } = this;
    const asked: Record<string, string> = {};
    const missing: Record<string, unknown> = {};
    for (const [key, input] of Object.entries(answer.inputRequests)) {
      const known = own(protocol.inputRequests, input.method);
      if (!known) {
        this.hooks.log(
          `mcp-gen server: ${request.method} asked for unknown input request ${input.method}`,
        );
        return INTERNAL;
      }
      if (clientCapabilities[known.capability] === undefined) missing[known.capability] = {};
      else {
        const deprecated = protocol.deprecated;
        const method = own(deprecated.methods, input.method);
        if (method !== undefined) this.hooks.reportDeprecated(method);
        const capability = own(deprecated.clientCapabilities, known.capability);
        if (capability !== undefined) this.hooks.reportDeprecated(capability);
      }
      asked[key] = input.method;
    }
    if (Object.keys(missing).length > 0) {
      return {
        error: {
          code: protocol.errors.missingCapability,
          message: "Missing required client capability",
          data: { requiredCapabilities: missing },
        },
      };
    }
    const envelope = protocol.envelope;
    const result: Record<string, unknown> = {};
    if (envelope.resultType !== null && protocol.resultTypes)
      result[envelope.resultType] = protocol.resultTypes.inputRequired;
    if (Object.keys(answer.inputRequests).length > 0) {
      const fields = envelope.inputRequest;
      if (envelope.inputRequests === null || fields === null) {
        this.hooks.log(
          `mcp-gen server: ${request.method} asked for input this revision cannot carry`,
        );
        return INTERNAL;
      }
      result[envelope.inputRequests] = Object.fromEntries(
        Object.entries(answer.inputRequests).map(([key, input]) => [
          key,
          { [fields.method]: input.method, [fields.params]: input.params ?? {} },
        ]),
      );
    }
    // Single use tells states apart by their tag: a nonce keeps two states minted for the same
    // call in the same millisecond from being one.
    const payload: Record<string, unknown> = { s: answer.state, k: asked };
    if (this.options.requestStateSingleUse) payload.n = randomNonce();
    // A revision with no state field carries none: the retry's responses are checked against the union.
    if (envelope.requestState === null) return { result };
    const field = envelope.requestState;
    const sealed = sealStateNow(payload, {
      secret: this.secret,
      ttlMs: this.options.requestStateTtlMs ?? DEFAULT_TTL_MS,
      audience: this.audience(request.method, spec, params, principal),
    });
    // A promise where the runtime has only Web Crypto.
    if (isThenable(sealed))
      return Promise.resolve(sealed).then((state) => ({ result: { ...result, [field]: state } }));
    result[field] = sealed;
    return { result };
  }

  /** Made on first use: a server that never seals a state never loads node:crypto. */
  private get secret(): string | Uint8Array {
    return (this.sealingSecret ??= this.options.secret ?? randomSecret());
  }

  /**
   * Binds sealed state to the call that made it: the method, its target, a digest of its other
   * params (the audience is HMAC'd whole, so the params need no hash of their own) and the
   * principal, so that it opens for nothing else: not another amount, not another caller.
   */
  private audience(
    method: string,
    spec: MethodSpec,
    params: Record<string, unknown>,
    principal: string | undefined,
  ): string {
    const target = spec.target === null ? null : (params[spec.target] ?? null);
    const salient: Record<string, unknown> = {};
    const { meta, inputResponses, requestState } = this.protocol.envelope;
    for (const key of Object.keys(params)) {
      if (key === meta || key === inputResponses || key === requestState) continue;
      Object.defineProperty(salient, key, { value: params[key], enumerable: true });
    }
    return canonicalJson([method, target, principal ?? null, salient]);
  }

  /**
   * "replayed" when single use is on and this state has been opened before; else null (and it is
   * now). With a shared store, the mark is set there (`SET NX`), by whichever process opens it first.
   */
  private replayed(token: string): "replayed" | null | Promise<"replayed" | null> {
    if (!this.options.requestStateSingleUse) return null;
    // The version byte and tag (17 bytes, 23 base64url characters) name a token: the tag covers the rest.
    const key = token.slice(0, 23);
    const ttl = this.options.requestStateTtlMs ?? DEFAULT_TTL_MS;
    const { store } = this.options;
    if (store)
      return store.claim(STORE_KEYS.opened(key), ttl).then((first) => (first ? null : "replayed"));
    const now = Date.now();
    for (const [old, expiry] of this.opened) {
      if (expiry > now) break;
      this.opened.delete(old);
    }
    if (this.opened.has(key)) return "replayed";
    this.opened.set(key, now + (this.options.requestStateTtlMs ?? DEFAULT_TTL_MS));
    if (this.opened.size > (this.options.maxSingleUseStates ?? 100_000))
      this.opened.delete(this.opened.keys().next().value!);
    return null;
  }

  /** The responses kept (what was asked for, each valid), or the first invalid one's pointer. */
  private inputResponses(
    responses: Record<string, unknown>,
    asked: Record<string, string> | null,
  ): { responses: Record<string, unknown> } | { error: string; path: string } {
    const kept: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(responses)) {
      // Own keys only: `asked.toString` or `asked.__proto__` must not count as asked for.
      const method = asked && Object.hasOwn(asked, key) ? asked[key] : undefined;
      if (asked && method === undefined) continue; // not asked for: ignored
      const validate = method
        ? own(this.protocol.inputRequests, method)?.response
        : this.protocol.anyInputResponse;
      const check = validate ? checkInput(validate, value) : undefined;
      if (check && !check.ok) {
        const first = check.errors?.[0];
        // A JSON pointer into the params, as for every other invalid param.
        const path = `/${this.protocol.envelope.inputResponses}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}${first?.path ?? ""}`;
        return { error: `Invalid params: ${path} ${first?.message ?? "is invalid"}`, path };
      }
      // A key is data: `kept[key] = value` with key `__proto__` would set the prototype instead.
      Object.defineProperty(kept, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return { responses: kept };
  }
}
