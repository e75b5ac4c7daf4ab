/**
 * The errors a generated client throws: JSON-RPC errors the server answered (`McpError` and its
 * subclasses by code), results that fail validation, and failures of the transport, the clock or
 * the multi round-trip. Browser-safe. Revision-independent; copied verbatim into generated output.
 */
import { ErrorCode, isRecord } from "../shared/jsonrpc.js";
import type { ProtocolDescription } from "../shared/protocol.js";

/** A JSON-RPC error answered by the server. */
export class McpError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "McpError";
  }
}

export class UnsupportedProtocolVersionError extends McpError {
  readonly supported: string[];
  readonly requested: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(code, message, data);
    this.name = "UnsupportedProtocolVersionError";
    const d = isRecord(data) ? data : {};
    this.supported = Array.isArray(d.supported)
      ? d.supported.filter((v): v is string => typeof v === "string")
      : [];
    this.requested = d.requested;
  }
}

export class MissingRequiredClientCapabilityError extends McpError {
  readonly requiredCapabilities: Record<string, unknown>;
  constructor(code: number, message: string, data?: unknown) {
    super(code, message, data);
    this.name = "MissingRequiredClientCapabilityError";
    const required = isRecord(data) ? data.requiredCapabilities : undefined;
    this.requiredCapabilities = isRecord(required) ? required : {};
  }
}

export class HeaderMismatchError extends McpError {
  constructor(code: number, message: string, data?: unknown) {
    super(code, message, data);
    this.name = "HeaderMismatchError";
  }
}

export class MethodNotFoundError extends McpError {
  constructor(code: number, message: string, data?: unknown) {
    super(code, message, data);
    this.name = "MethodNotFoundError";
  }
}

export class InvalidParamsError extends McpError {
  constructor(code: number, message: string, data?: unknown) {
    super(code, message, data);
    this.name = "InvalidParamsError";
  }
}

/** The server's answer is not a valid result of the method; `pointer` is the JSON pointer of the first error. */
export class InvalidResultError extends Error {
  constructor(
    readonly method: string,
    readonly pointer: string,
    detail: string,
    readonly result: unknown,
  ) {
    super(`Invalid result for ${method} at ${pointer || "/"}: ${detail}`);
    this.name = "InvalidResultError";
  }
}

/** The message could not be delivered or no answer could be read (HTTP status, dead process, garbage). */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "TransportError";
  }
}

export class TimeoutError extends Error {
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super(`${method} timed out after ${timeoutMs} ms`);
    this.name = "TimeoutError";
  }
}

/** A multi round-trip request needs input the client cannot give (no handler), or went on too long. */
export class InputRequiredError extends Error {
  constructor(
    message: string,
    readonly inputRequests?: unknown,
  ) {
    super(message);
    this.name = "InputRequiredError";
  }
}

/** The server ended the legacy session (HTTP 404 for its id): the client opens a new one. */
export class SessionExpiredError extends TransportError {
  constructor(message: string) {
    super(message, 404);
    this.name = "SessionExpiredError";
  }
}

/** The server speaks an initialize-era revision that has no such method. */
export class MethodNotInEraError extends Error {
  constructor(
    /** The legacy revision the server speaks. */
    readonly revision: string,
    readonly method: string,
  ) {
    super(`${method} is not part of protocol revision ${revision}, which the server speaks`);
    this.name = "MethodNotInEraError";
  }
}

/** A client generated without legacy revisions found a server of the initialize era. */
export class LegacyServerError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = "LegacyServerError";
  }
}

/** A JSON-RPC error the server answered, as the error class its code (by the revision's codes) calls for. */
export function toMcpError(
  codes: ProtocolDescription["errors"],
  error: { code: number; message: string; data?: unknown },
): McpError {
  const code = error.code;
  const message = typeof error.message === "string" ? error.message : "error";
  if (codes.unsupportedVersion !== null && code === codes.unsupportedVersion)
    return new UnsupportedProtocolVersionError(code, message, error.data);
  if (codes.missingCapability !== null && code === codes.missingCapability)
    return new MissingRequiredClientCapabilityError(code, message, error.data);
  if (codes.headerMismatch !== null && code === codes.headerMismatch)
    return new HeaderMismatchError(code, message, error.data);
  if (code === ErrorCode.MethodNotFound) return new MethodNotFoundError(code, message, error.data);
  if (code === ErrorCode.InvalidParams) return new InvalidParamsError(code, message, error.data);
  return new McpError(code, message, error.data);
}
