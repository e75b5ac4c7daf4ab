/*
 * JSON values as the differential tests' generators and mutations (test/helpers/mutate.ts,
 * schema-arbitraries.ts) handle them: only JSON (no `undefined`, NaN, ±Infinity, holes, functions or
 * prototypes other than Object.prototype / Array.prototype), with keys such as `__proto__` always
 * created as own data properties (never through the `__proto__` setter).
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Sets an own data property, also for keys like `__proto__` whose assignment would do something else. */
export function setKey(object: { [key: string]: Json }, key: string, value: Json): void {
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** A deep copy that keeps `__proto__` keys as own properties. */
export function clone<T extends Json>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => clone(item)) as T;
  if (value !== null && typeof value === "object") {
    const copy: { [key: string]: Json } = {};
    for (const key of Object.keys(value)) setKey(copy, key, clone(value[key]!));
    return copy as T;
  }
  return value;
}

/** Whether a value is a JSON value as this module promises (used by the tests as a guard). */
export function isJson(value: unknown): value is Json {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let i = 0; i < value.length; i++) if (!(i in value) || !isJson(value[i])) return false;
    return true;
  }
  if (typeof value === "object") {
    if (Object.getPrototypeOf(value) !== Object.prototype) return false;
    return Object.keys(value).every((key) => isJson((value as Record<string, unknown>)[key]));
  }
  return false;
}

/** A JSON object (not null, not an array). */
export function isPlainObject(value: Json): value is { [key: string]: Json } {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
