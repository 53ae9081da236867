// The nearest word to a typo, for "did you mean": the CLI's commands and options, and `/codex`'s
// sub-commands (src/bot/commandGrammar.ts).

/** Edit distance (insertions, deletions, substitutions, each 1) between two short words. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      row.push(Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, substitution));
    }
    previous = row;
  }
  return previous[b.length] as number;
}

/**
 * The candidate a typo most likely meant: the nearest within `max` edits (ties: the first), or
 * null. Two edits catch the usual slips (`--wiat`, `porject`) without guessing at real words.
 */
export function closest(word: string, candidates: readonly string[], max = 2): string | null {
  let best: { name: string; d: number } | null = null;
  for (const name of candidates) {
    const d = editDistance(word.toLowerCase(), name.toLowerCase());
    if (d <= max && d < word.length && (!best || d < best.d)) best = { name, d };
  }
  return best?.name ?? null;
}
