import type { Deprecation } from "../ir/model.js";
import { locationText } from "../registry/index.js";
import type { DiffContext } from "./context.js";

// What the schema names outside its types: constants, error codes, deprecations.

export function constants(c: DiffContext): void {
  const errorConstants = new Set([...c.from.errorCodes, ...c.to.errorCodes].map((e) => e.constant));
  const after = new Map(c.to.constants.map((c) => [c.name, c]));
  const before = new Map(c.from.constants.map((c) => [c.name, c]));
  for (const old of c.from.constants) {
    if (errorConstants.has(old.name)) continue;
    const now = after.get(old.name);
    if (!now)
      c.add(
        "constant-removed",
        "breaking-both",
        `constant ${old.name}`,
        `Constant ${old.name} removed`,
        { from: JSON.stringify(old.value) },
      );
    else if (now.value !== old.value) {
      c.add(
        "constant-changed",
        "breaking-both",
        `constant ${old.name}`,
        `Constant ${old.name} changed value`,
        { from: JSON.stringify(old.value), to: JSON.stringify(now.value) },
      );
    }
  }
  for (const now of c.to.constants) {
    if (errorConstants.has(now.name) || before.has(now.name)) continue;
    c.add("constant-added", "non-breaking", `constant ${now.name}`, `Constant ${now.name} added`, {
      to: JSON.stringify(now.value),
    });
  }
}

export function errorCodes(c: DiffContext): void {
  const after = new Map(c.to.errorCodes.map((e) => [e.constant, e]));
  const before = new Map(c.from.errorCodes.map((e) => [e.constant, e]));
  for (const old of c.from.errorCodes) {
    const now = after.get(old.constant);
    if (!now)
      c.add(
        "error-code-removed",
        "breaking-both",
        `error ${old.constant}`,
        `Error code ${old.code} (${old.constant}) removed`,
        { from: String(old.code) },
      );
    else if (now.code !== old.code) {
      c.add(
        "error-code-renumbered",
        "breaking-both",
        `error ${old.constant}`,
        `Error code ${old.constant} renumbered from ${old.code} to ${now.code}`,
        {
          from: String(old.code),
          to: String(now.code),
        },
      );
    }
  }
  for (const now of c.to.errorCodes) {
    if (!before.has(now.constant))
      c.add(
        "error-code-added",
        "non-breaking",
        `error ${now.constant}`,
        `Error code ${now.code} (${now.constant}) added`,
        { to: String(now.code) },
      );
  }
}

export function deprecations(c: DiffContext): void {
  const key = (d: Deprecation) => JSON.stringify(d.target);
  const before = new Set(c.from.deprecations.map(key));
  for (const [i, d] of c.to.deprecations.entries()) {
    if (before.has(key(d))) continue;
    const when = [d.asOf ? `as of ${d.asOf}` : "", d.sep ? `(${d.sep})` : ""]
      .filter(Boolean)
      .join(" ");
    c.add(
      "deprecation-added",
      "non-breaking",
      locationText(d),
      `${locationText(d)} deprecated${when ? ` ${when}` : ""}`,
      { to: d.text.replace(/\s+/g, " ").trim() },
    );
    const migration = c.migrations[i];
    if (migration) c.changes[c.changes.length - 1]!.migration = migration;
  }
}
