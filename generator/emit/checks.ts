import { code, ident, join, type Code } from "./code.js";
import type { CodeFile, ImportSymbol } from "./code-file.js";
import { RUNTIME } from "./runtime.js";

/** The runtime module generated code composes its checks with (`runtime/schema/checks.ts`). */
export const CHECKS = RUNTIME.checks;

/**
 * Check expressions over one validators module (`V`, or a legacy revision's), as the runtime takes
 * them: `checked(V.isN, V.validateN)` and its compositions. Each names what it uses through the
 * file, so the file imports exactly the helpers of `runtime/schema/checks.ts` its code calls.
 */
export class CheckCode {
  constructor(
    private readonly file: CodeFile,
    private readonly validators: ImportSymbol,
  ) {}

  /** A definition's check: the boolean test first, the detailed validator only on failure. */
  of(name: string): Code {
    const V = this.file.use(this.validators);
    return code`${this.file.use(CHECKS.value("checked"))}(${V}.${ident(`is${name}`)}, ${V}.${ident(`validate${name}`)})`;
  }

  /** A check passing a value valid as any of the definitions; every value when there are none. */
  anyOf(names: readonly string[]): Code {
    if (names.length === 0) return this.always();
    if (names.length === 1) return this.of(names[0]!);
    return code`${this.file.use(CHECKS.value("anyOf"))}(${join(names.map((n) => this.of(n)))})`;
  }

  /** The check every value passes. */
  always(): Code {
    return code`() => ${this.file.use(CHECKS.value("VALID"))}`;
  }

  /** A request's params checked through its message's validator (params with no type of their own). */
  paramsOf(message: string, method: string): Code {
    const V = this.file.use(this.validators);
    return code`${this.file.use(CHECKS.value("paramsOf"))}(${V}.${ident(`validate${message}`)}, ${method})`;
  }
}
