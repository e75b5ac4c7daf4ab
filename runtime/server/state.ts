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
import type * as NodeCrypto from "node:crypto";
import { createRequire } from "node:module";

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

/**
 * `node:crypto`, loaded on first use, so that a server that never seals or opens a state does not
 * load it. Through `require`: an ESM `import` of `node:crypto` also evaluates its Web Crypto half
 * (the import reads every export), some 300 KB of start-up heap for nothing.
 */
let crypto: typeof NodeCrypto | undefined;
const nodeCrypto = (): typeof NodeCrypto =>
  (crypto ??= createRequire("/")("node:crypto") as typeof NodeCrypto);

const TAG_CONTEXT = Buffer.from("state\0", "utf8");
const AUDIENCE_CONTEXT = Buffer.from("aud\0", "utf8");

/** A fresh random 32-byte secret. */
export function randomSecret(): Uint8Array {
  return new Uint8Array(nodeCrypto().randomBytes(32));
}

/** 96 random bits, base64url: makes each sealed state unique. */
export function randomNonce(): string {
  return nodeCrypto().randomBytes(12).toString("base64url");
}

function secretKey(secret: string | Uint8Array): Buffer {
  const key =
    typeof secret === "string"
      ? Buffer.from(secret, "utf8")
      : secret instanceof Uint8Array
        ? Buffer.from(secret)
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

function tagOf(key: Buffer, signed: Buffer): Buffer {
  return nodeCrypto()
    .createHmac("sha256", key)
    .update(TAG_CONTEXT)
    .update(signed)
    .digest()
    .subarray(0, TAG_BYTES);
}

function audienceTagOf(key: Buffer, audience: string | undefined): Buffer {
  const hmac = nodeCrypto().createHmac("sha256", key).update(AUDIENCE_CONTEXT);
  if (audience === undefined) hmac.update(Buffer.of(0));
  else hmac.update(Buffer.of(1)).update(audience, "utf8");
  return hmac.digest().subarray(0, AUDIENCE_TAG_BYTES);
}

function currentTime(now: number | undefined): number {
  const time = now ?? Date.now();
  if (!Number.isFinite(time)) throw new RangeError("now must be a finite number of milliseconds");
  return time;
}

/**
 * Seals a JSON-serialisable payload into an opaque, URL-safe token that `openState` accepts, with
 * the same secret and audience, until `now + ttlMs` (exclusive).
 */
export function sealState(payload: unknown, options: SealOptions): string {
  const key = secretKey(options.secret);
  if (!Number.isFinite(options.ttlMs) || options.ttlMs <= 0)
    throw new RangeError("ttlMs must be a positive number of milliseconds");
  const expiry = Math.floor(currentTime(options.now) + options.ttlMs);
  if (expiry < 0 || expiry > MAX_EXPIRY) throw new RangeError("state expiry is out of range");
  const json: unknown = JSON.stringify(payload);
  if (typeof json !== "string") throw new TypeError("state payload must be JSON-serialisable");
  const body = Buffer.from(json, "utf8");
  const token = Buffer.alloc(HEADER_BYTES + body.length);
  token[0] = VERSION;
  audienceTagOf(key, options.audience).copy(token, 1 + TAG_BYTES);
  token.writeUIntBE(expiry, 1 + TAG_BYTES + AUDIENCE_TAG_BYTES, EXPIRY_BYTES);
  body.copy(token, HEADER_BYTES);
  tagOf(key, signedPart(token)).copy(token, 1);
  return token.toString("base64url");
}

/** The bytes the tag covers: the version byte and everything after the tag. */
function signedPart(token: Buffer): Buffer {
  return Buffer.concat([token.subarray(0, 1), token.subarray(1 + TAG_BYTES)]);
}

/** Verifies a token made by `sealState` and returns its payload. Never throws on a bad token. */
export function openState(token: string, options: OpenOptions): OpenResult {
  const key = secretKey(options.secret);
  const now = currentTime(options.now);
  // The token is attacker-controlled: check its type at run time too.
  if (typeof token !== "string" || !BASE64URL.test(token))
    return { ok: false, reason: "malformed" };
  const bytes = Buffer.from(token, "base64url");
  // Only the canonical encoding is accepted, so no two strings open to the same state.
  if (bytes.length < HEADER_BYTES || bytes.toString("base64url") !== token)
    return { ok: false, reason: "malformed" };
  if (bytes[0] !== VERSION) return { ok: false, reason: "malformed" };

  const tag = bytes.subarray(1, 1 + TAG_BYTES);
  if (!nodeCrypto().timingSafeEqual(tag, tagOf(key, signedPart(bytes))))
    return { ok: false, reason: "tampered" };

  const audienceTag = bytes.subarray(1 + TAG_BYTES, 1 + TAG_BYTES + AUDIENCE_TAG_BYTES);
  if (!nodeCrypto().timingSafeEqual(audienceTag, audienceTagOf(key, options.audience)))
    return { ok: false, reason: "foreign" };

  const expiry = bytes.readUIntBE(1 + TAG_BYTES + AUDIENCE_TAG_BYTES, EXPIRY_BYTES);
  if (now >= expiry) return { ok: false, reason: "expired" };

  try {
    return {
      ok: true,
      payload: JSON.parse(bytes.subarray(HEADER_BYTES).toString("utf8")) as unknown,
    };
  } catch {
    // Unreachable for tokens sealed by `sealState`: the tag verified.
    return { ok: false, reason: "malformed" };
  }
}
