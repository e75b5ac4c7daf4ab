import type { ProtocolModel } from "../ir/model.js";
import { bridgeProblem } from "./eras.js";

/**
 * What `--legacy` is when it is not given: every released initialize-era revision older than the
 * one generated, so that a server (and a client) generated with no option speaks to every peer
 * deployed so far. Nothing here names a revision: "released" is a release date in the revision
 * catalog (schema/revisions.json, or a date-named spec folder), "older" compares those dates, and
 * "initialize-era" is what the loaded models say (`bridgeProblem`, derive/eras.ts).
 *
 * Two steps, so that only the candidates are loaded: `legacyCandidates` over the catalog, then
 * `defaultLegacy` over the candidates' models.
 */
export interface CatalogRevision {
  revision: string;
  /** null: not released (a draft). */
  releaseDate: string | null;
}

/**
 * The revisions a default `--legacy` may hold for `revision`: the released ones dated before it,
 * oldest first. An unreleased `revision` (a draft) comes after every release; none when the
 * generated revision cannot serve initialize-era clients at all (`stateless` false).
 */
export function legacyCandidates(
  revision: string,
  stateless: boolean,
  catalog: readonly CatalogRevision[],
): string[] {
  if (!stateless) return [];
  const own = catalog.find((entry) => entry.revision === revision)?.releaseDate ?? null;
  return catalog
    .filter(
      (entry): entry is CatalogRevision & { releaseDate: string } =>
        entry.revision !== revision &&
        entry.releaseDate !== null &&
        (own === null || entry.releaseDate < own),
    )
    .sort((a, b) => (a.releaseDate < b.releaseDate ? -1 : a.releaseDate > b.releaseDate ? 1 : 0))
    .map((entry) => entry.revision);
}

/** Of the candidates' models, the initialize-era ones `modern` can bridge to, in the order given. */
export function defaultLegacy(
  modern: ProtocolModel,
  candidates: readonly ProtocolModel[],
): ProtocolModel[] {
  return candidates.filter((legacy) => bridgeProblem(modern, legacy) === null);
}

/**
 * One order for the legacy models whatever order they were named or found in, newest protocol
 * version first, so that the output and its header are the same however `--legacy` was spelled.
 */
export function newestFirst(models: readonly ProtocolModel[]): ProtocolModel[] {
  const key = (m: ProtocolModel) => m.protocolVersion ?? m.revision;
  return [...models].sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0));
}

/** The word that turns the default off: `--legacy none`, `"legacy": "none"`. */
export const NO_LEGACY = "none";

/**
 * `--legacy` as given, normalized: `undefined` (not given) is the default; `none` (alone) or an
 * empty list is no legacy revision; anything else is the list. `none` beside a revision is a mistake
 * worth saying, returned as a message.
 */
export function legacyChoice(
  given: readonly string[] | undefined,
): { kind: "default" } | { kind: "list"; revisions: string[] } | { kind: "invalid"; why: string } {
  if (given === undefined) return { kind: "default" };
  const revisions = [...new Set(given)];
  if (!revisions.includes(NO_LEGACY)) return { kind: "list", revisions };
  if (revisions.length === 1) return { kind: "list", revisions: [] };
  return {
    kind: "invalid",
    why: `--legacy ${NO_LEGACY} turns the initialize-era revisions off: it goes with no revision (got ${revisions.join(",")})`,
  };
}

/**
 * `--legacy` as the regenerate command names it, normalized so that every spelling of the same
 * output reads the same: the revisions served (already newest first); `none` when a revision that
 * could serve some serves none; nothing for a revision that serves none by nature.
 */
export function legacyInput(model: ProtocolModel, legacy: readonly ProtocolModel[]): string[] {
  if (legacy.length === 0) return model.lifecycle.kind === "stateless" ? [NO_LEGACY] : [];
  return legacy.map((l) => l.revision);
}
