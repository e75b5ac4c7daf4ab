/**
 * "Did you mean" for a mistyped name (a revision, a command): the closest candidate within a couple
 * of edits, or none. Edits are counted as Damerau–Levenshtein distance, so a swapped pair of
 * digits (2025-06-81) counts as one.
 */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.min(3, Math.floor(input.length / 3)));
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(input.toLowerCase(), name.toLowerCase());
    if (distance <= limit && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** `; did you mean "X"?` or "" — ready to append to a message. */
export function didYouMean(input: string, candidates: readonly string[]): string {
  const match = closest(input, candidates);
  return match === undefined || match === input ? "" : `; did you mean "${match}"?`;
}

function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [
    i,
    ...Array<number>(b.length).fill(0),
  ]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, d[i - 2]![j - 2]! + 1);
      d[i]![j] = value;
    }
  }
  return d[a.length]![b.length]!;
}
