import { createHash } from "node:crypto";

/** Lowercase hex sha256, the form revisions.json records. */
export function sha256Hex(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}
