/**
 * The team lead's pre-run gates, as pure functions over the request and the workflow's rules, so each verdict and
 * the rule that decided it can be tested and explained without a model. docs/product-builds.md states the rule
 * grammar: `no …` / `never …` / `out of scope: …` forbid, `only …` limits.
 */

export { isYes } from '../pure/yes-answer';

export type ScopeVerdict = 'in_scope' | 'borderline' | 'out_of_scope';

export interface ScopeCheck {
  verdict: ScopeVerdict;
  /** The rule that decided, verbatim; null when no rule spoke to the request. */
  rule: string | null;
  /** The words of the request the rule matched. */
  matched: string[];
  rules_checked: number;
}

const STOPWORDS = new Set(
  'a an and any are as at be build builds by do does for from in into is it its of on or our the their them this to we with you your make makes making write writes anything something things thing'.split(
    ' ',
  ),
);

function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length > 2 && !STOPWORDS.has(w));
}

/** A word and its simple plural/singular forms, so "payments" meets "payment". */
function forms(word: string): string[] {
  return word.endsWith('s') ? [word, word.slice(0, -1)] : [word, `${word}s`];
}

const FORBID = /^\s*(?:no|never|don'?t(?:\s+build)?|do not(?:\s+build)?|out of scope\s*:)\s+(.+)$/i;
const LIMIT = /^\s*only\s+(.+)$/i;

/**
 * The first forbidding rule whose words the request uses decides `out_of_scope`; failing that, a limiting rule none
 * of whose words the request uses makes it `borderline`; otherwise it is `in_scope`. Rules of any other shape are
 * guidance for the levels, not gates, and never decide.
 */
export function checkScope(request: string, rules: readonly string[]): ScopeCheck {
  const words = new Set(contentWords(request));
  const uses = (word: string) => forms(word).some((form) => words.has(form));
  for (const rule of rules) {
    const forbid = FORBID.exec(rule);
    if (!forbid) continue;
    const matched = contentWords(forbid[1]!).filter(uses);
    if (matched.length > 0) return { verdict: 'out_of_scope', rule, matched, rules_checked: rules.length };
  }
  for (const rule of rules) {
    const limit = LIMIT.exec(rule);
    if (!limit) continue;
    const matched = contentWords(limit[1]!).filter(uses);
    if (matched.length === 0) return { verdict: 'borderline', rule, matched, rules_checked: rules.length };
    return { verdict: 'in_scope', rule, matched, rules_checked: rules.length };
  }
  return { verdict: 'in_scope', rule: null, matched: [], rules_checked: rules.length };
}

/** The rules kept in a `rules.md` (keptFile's format: one `- <rule>` line each). */
export function rulesIn(markdown: string): string[] {
  return markdown
    .split('\n')
    .map((line) => /^\s*[-*]\s+(.+)$/.exec(line)?.[1]?.trim())
    .filter((rule): rule is string => !!rule);
}
