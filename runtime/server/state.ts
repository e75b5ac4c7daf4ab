/**
 * Sealed `requestState` for multi round-trip requests (MRTR). A stateless server puts what it needs
 * to resume a request into the state it hands the client, and must treat the state that comes back
 * as attacker-controlled. `sealState` authenticates the state with HMAC-SHA256 and binds it to an
 * expiry and an audience (say, the method and tool name, plus a digest of the salient arguments),
 * so `openState` can reject anything modified, forged with another secret, expired, or minted for a
 * different call. Sealing protects integrity only: the client can read the payload, so never put
 * secrets in it. It does not make a state single-use either: within its time to live a state opens
 * as often as it is presented (the replay window); the dispatcher's `requestStateSingleUse` refuses
 * a second presentation within one process. Revision-independent; copied verbatim into generated
 * output.
 *
 * `sealState` and `openState` are synchronous, on `node:crypto`; `sealStateAsync` and
 * `openStateAsync` give the same tokens on Web Crypto as well, for runtimes without `node:crypto`
 * (workerd, browsers). Nothing here loads a `node:` module at load time.
 *
 * Token layout (one base64url string, no padding):
 *
 *   version (1 byte) | tag (16) | audience tag (12) | expiry (6, big-endian ms since epoch) | JSON payload
 *
 * - tag: HMAC-SHA256(secret, "state" 0x00 | everything after the tag, version byte first), truncated
 *   to 128 bits.
 * - audience tag: HMAC-SHA256(secret, "aud" 0x00 | 0x00) when sealed without an audience, or
 *   HMAC-SHA256(secret, "aud" 0x00 | 0x01 | UTF-8 audience), truncated to 96 bits. It is keyed, so the
 *   client cannot compute it for an audience of its choosing, and it is covered by the tag, so a
 *   foreign state is told apart from a tampered one without carrying the audience in clear.
 */
import { NodeBuffer } from "../shared/http-wire.js";
import { nodeCrypto } from "../shared/builtins.js";

export interface SealOptions {
  /** At least 16 bytes; a string is taken as UTF-8. `randomSecret()` makes a good one. */
  secret: string | Uint8Array;
  /** How long the state stays valid, in milliseconds. */
  ttlMs: number;
  /** The current time in milliseconds since the epoch; defaults to `Date.now()`. */
  now?: number;
  /** What the state may be presented to, e.g. `"tools/call:book_flight"`. */
  audience?: string;
}

export interface OpenOptions {
  /** The secret the state was sealed with. */
  secret: string | Uint8Array;
  /** The current time in milliseconds since the epoch; defaults to `Date.now()`. */
  now?: number;
  /** The audience the state must have been sealed for; no audience matches only an unbound state. */
  audience?: string;
}

export type OpenResult =
  | { ok: true; payload: unknown }
  /**
   * - `malformed`: not a state this code could have made (not a string, not canonical base64url,
   *   too short, unknown version).
   * - `tampered`: does not verify: modified, truncated, extended, or sealed with another secret.
   * - `expired`: authentic, but presented on or after its expiry.
   * - `foreign`: authentic, but sealed for another audience.
   */
  | { ok: false; reason: "malformed" | "tampered" | "expired" | "foreign" };

const VERSION = 1;
const TAG_BYTES = 16;
const AUDIENCE_TAG_BYTES = 12;
const EXPIRY_BYTES = 6;
const HEADER_BYTES = 1 + TAG_BYTES + AUDIENCE_TAG_BYTES + EXPIRY_BYTES;
const MAX_EXPIRY = 2 ** 48 - 1;
const MIN_SECRET_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

const encoder = new TextEncoder();
const TAG_CONTEXT = encoder.encode("state\0");
const AUDIENCE_CONTEXT = encoder.encode("aud\0");
const UNBOUND = Uint8Array.of(0);
const BOUND = Uint8Array.of(1);

/** HMAC-SHA256 of the parts' concatenation: at once (`node:crypto`) or as a promise (Web Crypto). */
type Mac<R> = (key: Uint8Array, parts: readonly Uint8Array[]) => R;

const nodeMac: Mac<Uint8Array> = (key, parts) => {
  const crypto = nodeCrypto();
  if (crypto === undefined)
    throw new Error(
      "sealState/openState need node:crypto: on this runtime use sealStateAsync/openStateAsync",
    );
  const hmac = crypto.createHmac("sha256", key);
  for (const part of parts) hmac.update(part);
  return hmac.digest();
};

/** An HMAC-SHA256 key of Web Crypto's. */
function importHmacKey(key: Uint8Array) {
  return globalThis.crypto.subtle.importKey(
    "raw",
    copyOf(key),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
}

/** Web Crypto's keys, by secret: importing one is a round trip of its own. */
const webKeys = new Map<string, ReturnType<typeof importHmacKey>>();
const MAX_WEB_KEYS = 16;

const webMac: Mac<Promise<Uint8Array>> = async (key, parts) => {
  const id = toBase64url(key);
  let imported = webKeys.get(id);
  if (imported === undefined) {
    if (webKeys.size >= MAX_WEB_KEYS) webKeys.delete(webKeys.keys().next().value!);
    imported = importHmacKey(key);
    webKeys.set(id, imported);
  }
  const signed = await globalThis.crypto.subtle.sign("HMAC", await imported, concat(parts));
  return new Uint8Array(signed);
};

/** The faster MAC the runtime has, as a promise. */
const anyMac: Mac<Uint8Array | Promise<Uint8Array>> = (key, parts) =>
  nodeCrypto() !== undefined ? nodeMac(key, parts) : webMac(key, parts);

/** A fresh random 32-byte secret. */
export function randomSecret(): Uint8Array {
  return randomBytes(32);
}

/** 96 random bits, base64url: makes each sealed state unique. */
export function randomNonce(): string {
  return toBase64url(randomBytes(12));
}

function randomBytes(size: number): Uint8Array {
  const crypto = nodeCrypto();
  return crypto !== undefined
    ? new Uint8Array(crypto.randomBytes(size))
    : globalThis.crypto.getRandomValues(new Uint8Array(size));
}

function secretKey(secret: string | Uint8Array): Uint8Array {
  const key =
    typeof secret === "string"
      ? encoder.encode(secret)
      : secret instanceof Uint8Array
        ? secret
        : null;
  if (key === null) throw new TypeError("state secret must be a string or a Uint8Array");
  if (key.length < MIN_SECRET_BYTES)
    throw new RangeError(
      `state secret must be at least ${MIN_SECRET_BYTES} bytes, not ${key.length}: use randomSecret(), or 32 random bytes shared by every process behind one load balancer`,
    );
  return key;
}

/** Throws (a clear `RangeError` or `TypeError`) unless `secret` can seal states: for checking options up front. */
export function checkSecret(secret: string | Uint8Array): void {
  secretKey(secret);
}

/**
 * JSON with object keys sorted, `undefined` members left out: the same text for the same value
 * however its keys were ordered, for binding a state to the parameters of the request that made it.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value))
    return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const members: string[] = [];
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) members.push(`${JSON.stringify(key)}:${canonicalJson(member)}`);
    }
    return `{${members.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function audienceParts(audience: string | undefined): Uint8Array[] {
  return audience === undefined
    ? [AUDIENCE_CONTEXT, UNBOUND]
    : [AUDIENCE_CONTEXT, BOUND, encoder.encode(audience)];
}

function currentTime(now: number | undefined): number {
  const time = now ?? Date.now();
  if (!Number.isFinite(time)) throw new RangeError("now must be a finite number of milliseconds");
  return time;
}

/** `f(value)`, at once for a value, once it settles for a promise. */
function after<T, R>(value: T | Promise<T>, f: (value: T) => R): R | Promise<Awaited<R>> {
  return value instanceof Promise ? (value.then(f) as Promise<Awaited<R>>) : f(value);
}

/**
 * Seals a JSON-serialisable payload into an opaque, URL-safe token that `openState` accepts, with
 * the same secret and audience, until `now + ttlMs` (exclusive).
 */
export function sealState(payload: unknown, options: SealOptions): string {
  return sealWith(nodeMac, payload, options) as string;
}

/** `sealState` on any runtime: Web Crypto where there is no `node:crypto`. */
export async function sealStateAsync(payload: unknown, options: SealOptions): Promise<string> {
  return sealWith(anyMac, payload, options);
}

/** `sealState` or `sealStateAsync`, whichever the runtime has: at once on Node. */
export function sealStateNow(payload: unknown, options: SealOptions): string | Promise<string> {
  return sealWith(anyMac, payload, options);
}

function sealWith<R extends Uint8Array | Promise<Uint8Array>>(
  mac: Mac<R>,
  payload: unknown,
  options: SealOptions,
): string | Promise<string> {
  const key = secretKey(options.secret);
  if (!Number.isFinite(options.ttlMs) || options.ttlMs <= 0)
    throw new RangeError("ttlMs must be a positive number of milliseconds");
  const expiry = Math.floor(currentTime(options.now) + options.ttlMs);
  if (expiry < 0 || expiry > MAX_EXPIRY) throw new RangeError("state expiry is out of range");
  const json: unknown = JSON.stringify(payload);
  if (typeof json !== "string") throw new TypeError("state payload must be JSON-serialisable");
  const body = encoder.encode(json);
  const token = new Uint8Array(HEADER_BYTES + body.length);
  token[0] = VERSION;
  writeExpiry(token, expiry);
  token.set(body, HEADER_BYTES);
  return after(mac(key, audienceParts(options.audience)), (audienceTag) => {
    token.set(audienceTag.subarray(0, AUDIENCE_TAG_BYTES), 1 + TAG_BYTES);
    return after(mac(key, [TAG_CONTEXT, ...signedParts(token)]), (tag) => {
      token.set(tag.subarray(0, TAG_BYTES), 1);
      return toBase64url(token);
    });
  });
}

/** The bytes the tag covers: the version byte and everything after the tag. */
function signedParts(token: Uint8Array): Uint8Array[] {
  return [token.subarray(0, 1), token.subarray(1 + TAG_BYTES)];
}

/** Verifies a token made by `sealState` and returns its payload. Never throws on a bad token. */
export function openState(token: string, options: OpenOptions): OpenResult {
  return openWith(nodeMac, token, options) as OpenResult;
}

/** `openState` on any runtime: Web Crypto where there is no `node:crypto`. */
export async function openStateAsync(token: string, options: OpenOptions): Promise<OpenResult> {
  return openWith(anyMac, token, options);
}

/** `openState` or `openStateAsync`, whichever the runtime has: at once on Node. */
export function openStateNow(
  token: string,
  options: OpenOptions,
): OpenResult | Promise<OpenResult> {
  return openWith(anyMac, token, options);
}

function openWith<R extends Uint8Array | Promise<Uint8Array>>(
  mac: Mac<R>,
  token: string,
  options: OpenOptions,
): OpenResult | Promise<OpenResult> {
  const key = secretKey(options.secret);
  const now = currentTime(options.now);
  // The token is attacker-controlled: check its type at run time too.
  if (typeof token !== "string" || !BASE64URL.test(token))
    return { ok: false, reason: "malformed" };
  const bytes = fromBase64url(token);
  // Only the canonical encoding is accepted, so no two strings open to the same state.
  if (bytes === null || bytes.length < HEADER_BYTES || toBase64url(bytes) !== token)
    return { ok: false, reason: "malformed" };
  if (bytes[0] !== VERSION) return { ok: false, reason: "malformed" };

  const tag = bytes.subarray(1, 1 + TAG_BYTES);
  return after(
    mac(key, [TAG_CONTEXT, ...signedParts(bytes)]),
    (expected): OpenResult | Promise<OpenResult> => {
      if (!equalBytes(tag, expected.subarray(0, TAG_BYTES)))
        return { ok: false, reason: "tampered" };
      const audienceTag = bytes.subarray(1 + TAG_BYTES, 1 + TAG_BYTES + AUDIENCE_TAG_BYTES);
      return after(mac(key, audienceParts(options.audience)), (audience): OpenResult => {
        if (!equalBytes(audienceTag, audience.subarray(0, AUDIENCE_TAG_BYTES)))
          return { ok: false, reason: "foreign" };
        if (now >= readExpiry(bytes)) return { ok: false, reason: "expired" };
        try {
          return {
            ok: true,
            payload: JSON.parse(new TextDecoder().decode(bytes.subarray(HEADER_BYTES))) as unknown,
          };
        } catch {
          // Unreachable for tokens sealed by `sealState`: the tag verified.
          return { ok: false, reason: "malformed" };
        }
      });
    },
  ) as OpenResult | Promise<OpenResult>;
}

const EXPIRY_AT = 1 + TAG_BYTES + AUDIENCE_TAG_BYTES;

/** The expiry, 48 bits big-endian (beyond what bitwise operators take, so by arithmetic). */
function writeExpiry(token: Uint8Array, expiry: number): void {
  let rest = expiry;
  for (let i = EXPIRY_BYTES - 1; i >= 0; i--) {
    token[EXPIRY_AT + i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
}

function readExpiry(token: Uint8Array): number {
  let expiry = 0;
  for (let i = 0; i < EXPIRY_BYTES; i++) expiry = expiry * 256 + token[EXPIRY_AT + i]!;
  return expiry;
}

/** Compares in time independent of where they differ (tags are secrets until they match). */
function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

function concat(parts: readonly Uint8Array[]) {
  let size = 0;
  for (const part of parts) size += part.length;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

/** A copy in a buffer of its own: what Web Crypto takes (never a view of a shared buffer). */
function copyOf(bytes: Uint8Array) {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}

function toBase64url(bytes: Uint8Array): string {
  if (NodeBuffer !== undefined)
    return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url");
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Bytes of base64url text (the caller checked its alphabet); `null` for an impossible length. */
function fromBase64url(text: string): Uint8Array | null {
  if (text.length % 4 === 1) return null;
  if (NodeBuffer !== undefined) return new Uint8Array(NodeBuffer.from(text, "base64url"));
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
