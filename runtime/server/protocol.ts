/**
 * The revision's protocol as the server reads it, apart from the dispatcher so that the pieces the
 * dispatcher is made of (lifecycle, input rounds, subscriptions) can read it without importing the
 * dispatcher. Revision-independent; copied verbatim into generated output.
 */
import { ErrorCode } from "../shared/jsonrpc.js";
import {
  bindProtocol,
  type Protocol as BoundProtocol,
  type ProtocolDescription,
  type ValidatorsModule,
} from "../shared/protocol.js";

/**
 * The revision's protocol as the dispatcher reads it: the one description (`runtime/protocol.ts`)
 * with its validators in place, the error codes every rejection needs (JSON-RPC's own
 * invalid-params code where the revision defines none), and the initialize-era revisions served too.
 */
export interface Protocol extends BoundProtocol {
  errors: { unsupportedVersion: number; missingCapability: number; headerMismatch: number | null };
}

/**
 * The server's protocol: the generated description, bound to the generated validators, its eras
 * (the initialize-era revisions also served; none: modern clients only) each to its own revision's.
 */
export function serverProtocol(
  description: ProtocolDescription,
  validators: ValidatorsModule,
  legacy: readonly ValidatorsModule[] = [],
): Protocol {
  const bound = bindProtocol(description, validators, legacy);
  const { errors } = description;
  return {
    ...bound,
    errors: {
      unsupportedVersion: errors.unsupportedVersion ?? ErrorCode.InvalidParams,
      missingCapability: errors.missingCapability ?? ErrorCode.InvalidParams,
      headerMismatch: errors.headerMismatch,
    },
  };
}
