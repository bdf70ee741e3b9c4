/**
 * Choosing a template and a design for a request. Pure functions (the workflow calls them through an activity that
 * also loads the catalogs), so the choice and its reason are testable without I/O.
 */
export interface Choice<T> {
  chosen: T;
  /** Why, in one sentence a person can check. */
  reason: string;
  /** Every candidate with its score, best first: the alternatives a person could have picked. */
  alternatives: Array<{ id: string; score: number }>;
}

const WORD = /[a-z0-9]+/g;

function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().match(WORD) ?? []);
}

/**
 * The candidate whose keywords the request mentions most; a pin (job metadata or scenario) wins outright. Ties go
 * to catalog order. Returns undefined only for an empty catalog or a pin that names nothing.
 */
export function chooseByKeywords<T extends { id: string; keywords: readonly string[] }>(
  candidates: readonly T[],
  request: string,
  pin?: string,
): Choice<T> | undefined {
  const words = wordsOf(request);
  const scored = candidates
    .map((candidate, index) => ({
      candidate,
      index,
      matched: candidate.keywords.filter((k) => words.has(k.toLowerCase())),
    }))
    .sort((a, b) => b.matched.length - a.matched.length || a.index - b.index);
  const alternatives = scored.map((s) => ({ id: s.candidate.id, score: s.matched.length }));
  if (pin !== undefined) {
    const pinned = candidates.find((c) => c.id === pin);
    return pinned ? { chosen: pinned, reason: `pinned to ${pin}`, alternatives } : undefined;
  }
  const best = scored[0];
  if (!best) return undefined;
  const reason =
    best.matched.length > 0
      ? `the request mentions ${best.matched.map((m) => `"${m}"`).join(', ')}`
      : `nothing in the request points elsewhere; ${best.candidate.id} is the default`;
  return { chosen: best.candidate, reason, alternatives };
}

/** True when no candidate scores: the request does not say what kind of thing to build. */
export function isUndecided(choice: Choice<unknown> | undefined): boolean {
  return !choice || choice.alternatives.every((a) => a.score === 0);
}
