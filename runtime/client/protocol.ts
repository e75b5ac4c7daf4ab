/**
 * The protocol a generated client hands to its core: the revision's one protocol description
 * (`protocol.ts`, shared with the server) with its validators in place. The client's names for
 * the types of `protocol.ts`. Types only. Revision-independent; copied verbatim into generated
 * output.
 */
export type {
  MethodSpec as ClientMethodSpec,
  Protocol as ClientProtocol,
  Validate,
} from "../shared/protocol.js";
