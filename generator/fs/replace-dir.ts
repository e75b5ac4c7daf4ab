import { existsSync, renameSync, rmSync } from "node:fs";

/**
 * Puts the finished folder `staging` in place of `target` with renames only, so that readers see
 * the old folder or the new one and never a mix. The old one moves aside first and is removed only
 * once the new one is in place; if the swap fails, the old one is put back.
 */
export function replaceDir(staging: string, target: string): void {
  const aside = `${staging}.old`;
  const hadPrevious = existsSync(target);
  if (hadPrevious) renameSync(target, aside);
  try {
    renameSync(staging, target);
  } catch (error) {
    if (hadPrevious) renameSync(aside, target);
    throw error;
  }
  if (hadPrevious) rmSync(aside, { recursive: true, force: true });
}
