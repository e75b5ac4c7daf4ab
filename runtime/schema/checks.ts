/*
 * How generated code composes a revision's compiled validators (`isN`, `validateN` of validators.ts)
 * into the checks the server, the client and a tools file hand to the runtime. One module, imported by
 * each generated file that needs it, so the helpers exist once per output. And how the server
 * runtime runs one over a peer's input.
 */

/** What a check returns; the runtime reads `ok` and the first error. */
export type Validate = (value: unknown) => {
  ok: boolean;
  errors?: ReadonlyArray<{ path: string; message: string }>;
};

/** The answer of every check that passes: shared, so a valid message costs no allocation. */
export const VALID = Object.freeze({ ok: true });

/** Runs the boolean check; only a failing value is checked again for the detailed errors. */
export function checked(is: (value: unknown) => boolean, validate: Validate): Validate {
  return (value) => (is(value) ? VALID : validate(value));
}

/** Valid when any of the validators accepts; otherwise the first one's errors. */
export function anyOf(...validators: Validate[]): Validate {
  return (value) => {
    let first: ReturnType<Validate> | undefined;
    for (const validate of validators) {
      const result = validate(value);
      if (result.ok) return result;
      first ??= result;
    }
    return first!;
  };
}

/**
 * Validates a request's params through its message's validator (for params that have no type of
 * their own), reporting pointers relative to the params.
 */
export function paramsOf(validateMessage: Validate, method: string): Validate {
  return (params) => {
    const result = validateMessage({ jsonrpc: "2.0", id: 0, method, params });
    if (result.ok) return result;
    return {
      ok: false,
      errors: (result.errors ?? []).map((e) => ({ ...e, path: e.path.replace(/^\/params/, "") })),
    };
  };
}

/**
 * Runs a check over a peer's input. The generated validators recurse, so input nested deeply
 * enough overflows the stack: that is the peer's invalid input, not a failure of the server.
 */
export function checkInput(validate: Validate, value: unknown): ReturnType<Validate> {
  try {
    return validate(value);
  } catch (error) {
    if (error instanceof RangeError)
      return { ok: false, errors: [{ path: "", message: "is nested too deeply to validate" }] };
    throw error;
  }
}
