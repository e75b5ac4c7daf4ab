import type { Deprecation, ProtocolModel } from "../ir/model.js";
import { CAPABILITY_TYPES } from "../ir/conventions.js";
import { Reach, type Party } from "./reach.js";
import type { ChangelogDeprecation } from "./changelog.js";
import { changelogMigration } from "./migrations.js";

/**
 * The deprecation registry of one revision: one entry per `@deprecated` tag of the schema (the IR's
 * `deprecations`, in source order), with what it affects on the wire and when it may go away.
 * Pure: everything comes from the model, the release dates and (when given) the changelog passed in.
 */

/** The policy's minimum deprecation window, in months. */
export const DEPRECATION_WINDOW_MONTHS = 12;

/** Revision name → release date (`YYYY-MM-DD`), `null` for unreleased revisions. */
export type Releases = Readonly<Record<string, string | null>>;

export type RegistryKind =
  "definition" | "property" | "capability" | "metaKey" | "literal" | "unionMember";

export interface RegistryEntry {
  /** Where the tag stands, and the same as one readable string (`Def.a.b`, `Def.a = "x" | "y"`, `Def | Member`). */
  location: {
    definition: string;
    path: string[];
    values: Array<string | number | boolean>;
    member: string | null;
    text: string;
  };
  kind: RegistryKind;
  /** Wire methods affected, in model order. */
  methods: string[];
  /** Capabilities affected: a deprecated property of a party's capabilities type. */
  capabilities: Array<{ party: Party; name: string }>;
  asOf: string | null;
  sep: string | null;
  /** `null` when the tag names no revision. */
  earliestRemoval: {
    /** asOf plus the deprecation window. */
    date: string;
    /** The rule, in words: the first revision released on or after `date`. */
    rule: string;
    /** The first known revision released on or after `date`, or `null` if none is known yet. */
    revision: string | null;
    /**
     * The feature whose removal this one goes with, when the text ties it to one ("removed no later
     * than the Sampling feature itself (SEP-2577)"): the date is then that feature's.
     */
    follows: { feature: string; sep: string | null } | null;
  } | null;
  migration: {
    /** The tag's whole text. */
    text: string;
    /** The sentence telling what to do instead ("Omit this field or use …"), or `null`. */
    sentence: string | null;
    /**
     * What the revision's changelog says to do instead, where it names it (`parseChangelog`), else
     * `null`; absent when the registry was made without a changelog. Only commands reading the
     * spec's docs pass one: generated output never depends on whether the docs are there (the
     * download cache holds no docs), so the emitted registry has no such field.
     */
    changelog?: string | null;
  };
  line: number;
}

export function deprecationRegistry(
  model: ProtocolModel,
  releases: Releases,
  changelog?: readonly ChangelogDeprecation[],
): RegistryEntry[] {
  const reach = new Reach(model);
  const metaDefinitions = metaDefinitionNames(model);
  const allMethods = model.methods.map((m) => m.method);
  const capabilityParty = new Map<string, Party>([
    [CAPABILITY_TYPES.client, "client"],
    [CAPABILITY_TYPES.server, "server"],
  ]);

  const entries = model.deprecations.map((deprecation): RegistryEntry => {
    const { target } = deprecation;
    const definition = target.definition;
    const path = target.kind === "property" || target.kind === "literal" ? target.path : [];
    const party = capabilityParty.get(definition);
    let kind: RegistryKind = target.kind;
    let methods = reach.methodsReaching(definition);
    let capabilities: RegistryEntry["capabilities"] = [];
    if (target.kind === "property" && party) {
      kind = "capability";
      const name = path.join(".");
      capabilities = [{ party, name }];
      methods = model.methods.filter((m) => gatedBy(m.method, path[0]!)).map((m) => m.method);
    } else if (target.kind === "property" && metaDefinitions.has(definition) && path.length === 1) {
      kind = "metaKey";
      methods = allMethods;
    } else if (target.kind === "unionMember") {
      // The member as a union member: the union's users and the member's own.
      const users = new Set([...methods, ...reach.methodsReaching(target.member)]);
      methods = allMethods.filter((m) => users.has(m));
    }
    return {
      location: {
        definition,
        path,
        values: target.kind === "literal" ? target.values : [],
        member: target.kind === "unionMember" ? target.member : null,
        text: locationText(deprecation),
      },
      kind,
      methods,
      capabilities,
      asOf: deprecation.asOf,
      sep: deprecation.sep,
      earliestRemoval: earliestRemoval(deprecation.asOf, releases),
      migration: {
        text: deprecation.text,
        sentence: migrationSentence(deprecation.text),
        ...(changelog
          ? {
              changelog: changelogMigration(
                {
                  definition,
                  path,
                  methods: kind === "metaKey" ? null : methods,
                  sep: deprecation.sep,
                },
                changelog,
                model,
              ),
            }
          : {}),
      },
      line: deprecation.line,
    };
  });
  for (const entry of entries) {
    const tie = removalTie(entry.migration.text);
    if (tie) entry.earliestRemoval = followRemoval(entry, tie, entries, releases);
  }
  return entries;
}

/** "… removed no later than the Sampling feature itself (SEP-2577)": the feature and its SEP. */
export function removalTie(text: string): { feature: string; sep: string | null } | null {
  const flat = text.replace(/\s+/g, " ");
  const tie = /\bno later than (?:the )?(.+?) feature\b(?: itself)?(?: \((SEP-\d+)\))?/i.exec(flat);
  return tie ? { feature: tie[1]!, sep: tie[2] ?? null } : null;
}

/**
 * The removal of an entry tied to a feature: that of the feature's own deprecations in this
 * revision (the entries of its SEP that are tied to nothing), the latest of them. Without any, the
 * entry keeps its own window, still naming the feature it follows.
 */
function followRemoval(
  entry: RegistryEntry,
  tie: { feature: string; sep: string | null },
  entries: RegistryEntry[],
  releases: Releases,
): RegistryEntry["earliestRemoval"] {
  const dates = entries
    .filter(
      (other) =>
        other !== entry &&
        tie.sep !== null &&
        other.sep === tie.sep &&
        !removalTie(other.migration.text) &&
        other.earliestRemoval,
    )
    .map((other) => other.earliestRemoval!.date)
    .sort();
  const latest = dates[dates.length - 1];
  const own = latest ? { date: latest } : entry.earliestRemoval;
  if (!own) return null;
  const named = `the ${tie.feature} feature${tie.sep ? ` (${tie.sep})` : ""}`;
  return {
    date: own.date,
    rule: `with ${named}: the first revision released on or after ${own.date}`,
    revision: firstReleasedOnOrAfter(own.date, releases),
    follows: tie,
  };
}

/** The release dates of `schema/revisions.json`'s revisions. */
export function releasesOf(manifest: {
  revisions: Record<string, { releaseDate: string | null }>;
}): Releases {
  return Object.fromEntries(
    Object.entries(manifest.revisions).map(([name, entry]) => [name, entry.releaseDate]),
  );
}

export function locationText(d: Deprecation): string {
  const { target } = d;
  switch (target.kind) {
    case "definition":
      return target.definition;
    case "property":
      return [target.definition, ...target.path].join(".");
    case "literal":
      return `${[target.definition, ...target.path].join(".")} = ${target.values.map((v) => JSON.stringify(v)).join(" | ")}`;
    case "unionMember":
      return `${target.definition} | ${target.member}`;
  }
}

/** The definitions that are a `_meta` object: a `_meta` property's type, or the lifecycle's request meta. */
function metaDefinitionNames(model: ProtocolModel): Set<string> {
  const names = new Set<string>();
  if (model.lifecycle.kind === "stateless") names.add(model.lifecycle.requestMeta);
  for (const definition of model.definitions) {
    if (definition.type.kind !== "object") continue;
    for (const property of definition.type.properties) {
      if (property.name === "_meta" && property.type.kind === "ref") names.add(property.type.name);
    }
  }
  return names;
}

/** Whether a capability gates a method: its first segment (after `notifications/`) names it (`tools`, `completion` → `completions`). */
function gatedBy(method: string, capability: string): boolean {
  const segments = method.split("/");
  const first = segments[0] === "notifications" ? segments[1] : segments[0];
  return first === capability || `${first}s` === capability;
}

/** asOf + the deprecation window and the first known revision released on or after that date. */
export function earliestRemoval(
  asOf: string | null,
  releases: Releases,
): RegistryEntry["earliestRemoval"] {
  if (!asOf || !/^\d{4}-\d{2}-\d{2}$/.test(asOf)) return null;
  const date = addMonths(asOf, DEPRECATION_WINDOW_MONTHS);
  return {
    date,
    rule: `the first revision released on or after ${date}`,
    revision: firstReleasedOnOrAfter(date, releases),
    follows: null,
  };
}

/** The first known revision released on or after a date (a release on the date itself counts). */
function firstReleasedOnOrAfter(date: string, releases: Releases): string | null {
  return (
    Object.entries(releases)
      .filter((e): e is [string, string] => e[1] !== null && e[1] >= date)
      .sort((a, b) => a[1].localeCompare(b[1]) || a[0].localeCompare(b[0]))[0]?.[0] ?? null
  );
}

/** A `YYYY-MM-DD` date plus whole months; a day past the month's end becomes its last day. */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(Math.min(d, lastDay)).padStart(2, "0")}`;
}

const MIGRATION = /\b(use|omit|instead|replace[ds]?|migrate|switch to|prefer)\b/i;

/** The first sentence of a tag's text that says what to do instead, whitespace collapsed. */
export function migrationSentence(text: string): string | null {
  const flat = text.replace(/\s+/g, " ").trim();
  // Sentences end with `.`, `!` or `?` before a space and a capital letter (or the end).
  const sentences = flat.split(/(?<=[.!?])\s+(?=[A-Z`"{])/);
  return sentences.find((s) => MIGRATION.test(s)) ?? null;
}
