import type { Method, MethodRole, ProtocolModel } from "../ir/model.js";
import { counterparts, sendersOf } from "../registry/reach.js";
import { severityFor } from "./rules.js";
import { typeText } from "./types.js";
import type { DiffContext } from "./context.js";
import { lookThrough, objectChanges } from "./definitions.js";
import { alternativeChanges, alternatives as alternativesOf } from "./alternatives.js";

// The lifecycle and the methods: which exist, their roles, who sends them, their params and results.

export function lifecycle(c: DiffContext): void {
  const a = JSON.stringify(c.from.lifecycle);
  const b = JSON.stringify(c.to.lifecycle);
  if (a === b) return;
  const describe = (l: ProtocolModel["lifecycle"]): string =>
    l.kind === "stateful"
      ? `stateful (${[l.initialize, l.initialized].filter(Boolean).join(" + ")})`
      : l.kind === "stateless"
        ? `stateless (${l.discover}, _meta ${l.requestMeta} requiring ${l.requiredMetaKeys.join(", ")})`
        : "unknown";
  // Before and after always differ in what they show: the whole lifecycle when the summaries agree.
  const [from, to] =
    describe(c.from.lifecycle) === describe(c.to.lifecycle)
      ? [a, b]
      : [describe(c.from.lifecycle), describe(c.to.lifecycle)];
  const message =
    c.from.lifecycle.kind === c.to.lifecycle.kind
      ? `Lifecycle (${c.to.lifecycle.kind}) changed`
      : `Lifecycle changed from ${c.from.lifecycle.kind} to ${c.to.lifecycle.kind}`;
  c.add("lifecycle-changed", "breaking-both", "lifecycle", message, { from, to });
}

export function methods(c: DiffContext): void {
  const after = new Map(c.to.methods.map((m) => [m.method, m]));
  const before = new Map(c.from.methods.map((m) => [m.method, m]));
  for (const old of c.from.methods) {
    const now = after.get(old.method);
    if (!now) {
      const rule = old.roles.every((r) => r.kind === "notification")
        ? "notification-removed"
        : "method-removed";
      c.add(
        rule,
        severityFor(old.roles.flatMap((r) => sendersOf(r.sender))),
        old.method,
        `${describeMethod(old)} removed`,
        { from: messagesOf(old) },
      );
      continue;
    }
    roleChanges(c, old, now);
  }
  for (const now of c.to.methods) {
    if (before.has(now.method)) continue;
    const rule = now.roles.every((r) => r.kind === "notification")
      ? "notification-added"
      : "method-added";
    c.add(rule, "non-breaking", now.method, `${describeMethod(now)} added`, {
      to: messagesOf(now),
    });
  }
}

/**
 * Roles compared kind by kind: one role turned into another is a kind change; a role gained breaks
 * its receivers (they must now handle it), a role lost its senders; within a kind, who sends it and
 * what answers it.
 */
function roleChanges(c: DiffContext, old: Method, now: Method): void {
  const at = now.method;
  const kinds = (m: Method) => m.roles.map((r) => r.kind).join(" + ");
  const { lost, gained } = kindChange(old, now);
  if (lost.length > 0 && lost.length === old.roles.length && gained.length === now.roles.length) {
    c.add(
      "method-kind-changed",
      "breaking-both",
      at,
      `${at} changed from ${kinds(old)} to ${kinds(now)}`,
      { from: kinds(old), to: kinds(now) },
    );
  } else if (lost.length > 0 || gained.length > 0) {
    const broken = [
      ...lost.flatMap((r) => sendersOf(r.sender)),
      ...gained.flatMap((r) => counterparts(sendersOf(r.sender))),
    ];
    c.add(
      "method-kind-changed",
      severityFor(broken),
      at,
      `${at} is now ${kinds(now)} (was ${kinds(old)})`,
      { from: kinds(old), to: kinds(now) },
    );
  }
  for (const before of old.roles) {
    const after = now.roles.find((r) => r.kind === before.kind);
    if (after) roleChange(c, at, before, after);
  }
}

/** The roles of a method whose kinds one revision has and the other has not: `method-kind-changed` when any. */
function kindChange(old: Method, now: Method): { lost: MethodRole[]; gained: MethodRole[] } {
  return {
    lost: old.roles.filter((r) => !now.roles.some((n) => n.kind === r.kind)),
    gained: now.roles.filter((r) => !old.roles.some((o) => o.kind === r.kind)),
  };
}

/**
 * The methods both revisions have that `method-kind-changed` reports, without diffing the rest:
 * for a caller that needs this one rule (the era bridge) and not the whole report.
 */
export function methodsOfChangedKind(from: ProtocolModel, to: ProtocolModel): Set<string> {
  const after = new Map(to.methods.map((m) => [m.method, m]));
  return new Set(
    from.methods.flatMap((old) => {
      const now = after.get(old.method);
      if (!now) return [];
      const { lost, gained } = kindChange(old, now);
      return lost.length > 0 || gained.length > 0 ? [now.method] : [];
    }),
  );
}

function roleChange(c: DiffContext, at: string, old: MethodRole, now: MethodRole): void {
  const senders = sendersOf(now.sender);
  const oldParams = old.params ? typeText(old.params) : "none";
  const newParams = now.params ? typeText(now.params) : "none";
  const same =
    old.params && now.params ? c.equivalent(old.params, now.params) : oldParams === newParams;
  const inner = old.params && now.params && !same ? lookThrough(c, old.params, now.params) : null;
  const alternatives =
    old.params && now.params && !same && !inner ? alternativesOf(c, old.params, now.params) : null;
  if (inner && old.message !== now.message) {
    // Another message: its definition's diff cannot show what changed in the params.
    c.changes.push(...objectChanges(c, now.message, ["params"], inner.before, inner.after));
  } else if (alternatives) {
    alternativeChanges(c, at, now.message, senders, alternatives);
  } else if (!same && !inner) {
    c.add("method-params-changed", "breaking-both", at, `${at} params type changed`, {
      from: oldParams,
      to: newParams,
    });
  } else if (old.params && old.paramsOptional !== now.paramsOptional) {
    c.add(
      "method-params-changed",
      severityFor(now.paramsOptional ? counterparts(senders) : senders),
      at,
      `${at} params became ${now.paramsOptional ? "optional" : "required"}`,
      {
        from: old.paramsOptional ? "optional" : "required",
        to: now.paramsOptional ? "optional" : "required",
      },
    );
  }
  if (old.sender !== now.sender) {
    const before = sendersOf(old.sender);
    const after = sendersOf(now.sender);
    const lost = before.filter((p) => !after.includes(p));
    const gained = after.filter((p) => !before.includes(p));
    c.add(
      "method-sender-changed",
      severityFor([...lost, ...counterparts(gained)]),
      at,
      `${at} is now sent by ${now.sender} (was ${old.sender})`,
      {
        from: old.sender,
        to: now.sender,
      },
    );
  }
  const oldResults = old.results.map(c.renamed);
  const added = now.results.filter((r) => !oldResults.includes(r));
  const removed = old.results.filter((r) => !now.results.includes(c.renamed(r)));
  if (added.length || removed.length) {
    const broken = [
      ...(added.length ? senders : []),
      ...(removed.length ? counterparts(senders) : []),
    ];
    const parts = [
      added.length ? `added ${added.join(", ")}` : "",
      removed.length ? `removed ${removed.join(", ")}` : "",
    ].filter(Boolean);
    c.add(
      "method-results-changed",
      severityFor(broken),
      at,
      `${at} result types changed: ${parts.join("; ")}`,
      {
        from: old.results.join(" | ") || "none",
        to: now.results.join(" | ") || "none",
      },
    );
  }
}

function messagesOf(method: Method): string {
  return [...new Set(method.roles.map((role) => role.message))].join(", ");
}

function describeMethod(method: Method): string {
  const roles = method.roles.map((role) => {
    const kind =
      role.kind === "notification"
        ? "Notification"
        : role.kind === "inputRequest"
          ? "Input request"
          : "Request";
    return `${kind} ${method.method} (sent by ${role.sender === "both" ? "either party" : role.sender})`;
  });
  return roles.join(" and ");
}
