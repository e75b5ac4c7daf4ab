/**
 * The resources of the conformance fixture server (conformance-server.ts): two static ones (text and
 * a PNG) and one template, read by URI.
 */
import { RpcError } from "../generated/dual/index.js";
import type * as T from "../generated/dual/index.js";
import { PNG } from "./conformance-fixtures.js";

export const RESOURCES: T.Resource[] = [
  {
    uri: "test://static-text",
    name: "static-text",
    mimeType: "text/plain",
    description: "A fixed text.",
  },
  {
    uri: "test://static-binary",
    name: "static-binary",
    mimeType: "image/png",
    description: "A fixed PNG.",
  },
];

export function readResource(uri: string): T.ReadResourceResult["contents"] {
  if (uri === "test://static-text")
    return [{ uri, mimeType: "text/plain", text: "Static text served by the mcp-gen fixture." }];
  if (uri === "test://static-binary") return [{ uri, mimeType: "image/png", blob: PNG }];
  const templated = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
  if (templated)
    return [
      {
        uri,
        mimeType: "application/json",
        text: JSON.stringify({ id: templated[1], source: "template" }),
      },
    ];
  throw new RpcError(-32602, "Resource not found", { uri });
}
