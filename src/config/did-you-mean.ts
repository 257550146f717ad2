/**
 * "Did you mean": the known word nearest to a mistyped one. Distance is
 * counted in edits (a letter added, dropped or changed, or two neighbours
 * swapped, as in `prot` for `port`); a word more than two edits (one for a
 * word of up to five letters) from every known one gets no suggestion.
 */

/** Edits between two words, a swap of neighbours counting one (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) =>
      i === 0 ? j
      : j === 0 ? i
      : 0,
    ),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const change = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + change);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The known word nearest to `word`, if one is near enough; ties go to the first listed. */
export function nearest(word: string, known: Iterable<string>): string | undefined {
  const most = word.length <= 5 ? 1 : 2;
  let found: { word: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance <= most && (found === undefined || distance < found.distance)) found = { word: candidate, distance };
  }
  return found?.word;
}

/** ` (did you mean X?)` for the known word nearest to `word`, shown by `show`; '' when none is near. */
export function didYouMean(word: string, known: Iterable<string>, show: (word: string) => string = (w) => w): string {
  const near = nearest(word, known);
  return near === undefined ? '' : ` (did you mean ${show(near)}?)`;
}
