import type * as Formats from "../../runtime/schema/formats.js";

/**
 * The `@format` values a model may use: exactly those the runtime (`runtime/schema/formats.ts`)
 * can check, each with its checker's name. The loader rejects any other format at its line, so an
 * emitter never meets a format it cannot validate.
 */
export const FORMAT_CHECKERS: Readonly<Record<string, keyof typeof Formats>> = {
  uri: "isUri",
  "uri-template": "isUriTemplate",
  byte: "isByte",
  "date-time": "isDateTime",
};
