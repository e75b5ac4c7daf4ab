/**
 * Checking a result against the revision's validator: a result that fails (or nests too deeply to
 * be checked) is `InvalidResultError`, naming the first failure. Revision-independent; copied
 * verbatim into generated output.
 */
import { InvalidResultError } from "./errors.js";
import type { Validate } from "./protocol.js";

export function checkResult(
  method: string,
  validate: Validate,
  result: Record<string, unknown>,
): void {
  let checked: ReturnType<Validate>;
  try {
    checked = validate(result);
  } catch (error) {
    if (error instanceof RangeError)
      throw new InvalidResultError(method, "", "is nested too deeply to validate", result);
    throw error;
  }
  if (!checked.ok) {
    const first = checked.errors?.[0];
    throw new InvalidResultError(method, first?.path ?? "", first?.message ?? "is invalid", result);
  }
}
