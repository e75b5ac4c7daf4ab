import type { ProtocolModel } from "../ir/model.js";
import { GeneratorError } from "../errors.js";
import { catalog } from "../spec/catalog.js";
import type { ResolvedSchema } from "../spec/resolve.js";
import { chooseSpecDir } from "../spec/sources.js";
import {
  defaultLegacy,
  legacyCandidates,
  newestFirst,
  NO_LEGACY,
} from "../derive/legacy-default.js";
import { cacheDirFor, UsageError, type CliIO } from "./context.js";
import type { GenerateRequest } from "./request.js";

/**
 * The initialize-era models each generated revision also serves: `--legacy`'s list (one revision
 * only), none (`--legacy none`), or by default every released initialize-era revision older than it
 * (derive/legacy-default.ts), among the revisions the catalog knows: with a spec dir named, the ones
 * it holds (it is authoritative); else the pinned ones and the cache's. Every schema is located and
 * loaded here, before any output is written.
 */
export async function legacyModels(
  request: GenerateRequest,
  modern: ReadonlyMap<string, ProtocolModel>,
  io: CliIO,
  locate: (revision: string) => Promise<ResolvedSchema>,
  load: (schema: ResolvedSchema) => Promise<ProtocolModel>,
): Promise<Map<string, ProtocolModel[]>> {
  const out = new Map<string, ProtocolModel[]>();
  if (request.legacy !== undefined) {
    const models: ProtocolModel[] = [];
    for (const revision of request.legacy) models.push(await load(await locate(revision)));
    for (const revision of modern.keys()) out.set(revision, newestFirst(models));
    return out;
  }
  const explicit = chooseSpecDir({ specDir: request.specDir, env: io.env, cwd: io.cwd });
  const known = catalog({
    specDir: request.specDir,
    env: io.env,
    cwd: io.cwd,
    cacheDir: cacheDirFor(io),
  }).filter((entry) => !explicit || entry.present.includes(explicit.origin));
  const loaded = new Map<string, ProtocolModel>();
  for (const [revision, model] of modern) {
    const candidates: ProtocolModel[] = [];
    for (const candidate of legacyCandidates(
      revision,
      model.lifecycle.kind === "stateless",
      known,
    )) {
      let legacy = loaded.get(candidate) ?? modern.get(candidate);
      if (!legacy) {
        legacy = await load(await locateForDefault(candidate, revision, locate));
        loaded.set(candidate, legacy);
      }
      candidates.push(legacy);
    }
    out.set(revision, newestFirst(defaultLegacy(model, candidates)));
  }
  return out;
}

/** A default legacy revision that cannot be found: the error says where the default came from and how to turn it off. */
async function locateForDefault(
  candidate: string,
  revision: string,
  locate: (revision: string) => Promise<ResolvedSchema>,
): Promise<ResolvedSchema> {
  try {
    return await locate(candidate);
  } catch (error) {
    if (!(error instanceof GeneratorError)) throw error;
    throw new GeneratorError(
      `${error.toString().replace(/^mcp-gen: /, "")} (the default --legacy of ${revision} reads every released revision before it; --legacy ${NO_LEGACY} generates without them)`,
    );
  }
}

/** `--legacy` names initialize-era revisions for one server: a list with several revisions is a mistake. */
export function checkLegacyList(request: GenerateRequest, revisions: readonly string[]): void {
  if (request.legacy !== undefined && request.legacy.length > 0 && revisions.length !== 1)
    throw new UsageError(
      `--legacy serves older clients from one server: give exactly one --revision (or --legacy ${NO_LEGACY}, or leave the default)`,
    );
}
