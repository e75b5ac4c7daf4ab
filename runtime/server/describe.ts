/**
 * The result describing the server (discovery in a stateless revision, the handshake in a stateful
 * one), laid out as the revision's result type has it: each field and what fills it come from the
 * generated `Protocol` (`describe`). Revision-independent; copied verbatim into generated output.
 */
import type { DescribeSource } from "../shared/protocol.js";
import type { Protocol } from "./protocol.js";

/** What fills the description's fields: the server's options, its versions, its identity. */
export interface DescribedServer {
  protocol: Protocol;
  options: {
    capabilities: Record<string, unknown>;
    instructions?: string;
    cache?: { ttlMs: number; cacheScope: "public" | "private" };
  };
  supportedVersions: readonly string[];
  identity(): Record<string, unknown>;
}

/** The server's description at `protocolVersion`: fields whose source has no value are left out. */
export function describeServer(
  server: DescribedServer,
  protocolVersion: string,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [field, source] of Object.entries(server.protocol.describe)) {
    const value = describeValue(server, source, protocolVersion);
    if (value !== undefined) result[field] = value;
  }
  return result;
}

function describeValue(
  server: DescribedServer,
  source: DescribeSource,
  protocolVersion: string,
): unknown {
  const { options, protocol } = server;
  switch (source) {
    case "supportedVersions":
      return [...server.supportedVersions];
    case "protocolVersion":
      return protocolVersion;
    case "capabilities":
      return options.capabilities;
    case "info":
      return server.identity();
    case "instructions":
      return options.instructions;
    case "cacheTtl":
      return options.cache?.ttlMs ?? protocol.envelope.cacheHints?.uncached.ttl;
    case "cacheScope":
      return options.cache?.cacheScope ?? protocol.envelope.cacheHints?.sharedScope;
  }
}
