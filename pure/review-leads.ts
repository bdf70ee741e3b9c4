/**
 * The review leads: the security and adversarial leads of an L2 roster, which besides planning review the executor's
 * result after the verifier passed it. Each review is a verdict level of its own: a finding of `blocking` severity
 * fails the review, and the executor gets the fix back under the same retries-then-escalate rule as a failed
 * verification (docs/product-builds.md, "Review leads"). Deterministic and import-free, so workflow code may use it.
 */

/** The roles that review, in no particular order; a scenario runs its reviews in its own level order. */
export const REVIEW_LEAD_ROLES = ['L2.security_lead', 'L2.adversarial_lead'] as const;

/** Severities a finding may carry; only `blocking` fails the review. */
export const FINDING_SEVERITIES = ['blocking', 'major', 'minor'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

export interface ReviewFinding {
  severity: FindingSeverity;
  finding: string;
  /** What the executor should change; may be empty. */
  fix: string;
}

export interface Review {
  /** `fail` exactly when a finding is blocking; `unknown` when the reply could not be read (the job goes on). */
  verdict: 'pass' | 'fail' | 'unknown';
  findings: ReviewFinding[];
  /** One delta per blocking finding, for the executor: `<role>: <fix or finding>`. */
  deltas: string[];
}

/** The system line that tells a model (and the offline demo model) that this run reviews a result. */
export const REVIEW_MARKER = 'Keel review: findings as JSON';

export function isReviewLead(role: string): boolean {
  return (REVIEW_LEAD_ROLES as readonly string[]).includes(role);
}

const FOCUS: Record<string, string> = {
  'L2.security_lead':
    'what could go wrong in production: secrets or tokens in files, user input reaching HTML or a shell unescaped, ' +
    'links to untrusted origins, dependencies fetched at build time',
  'L2.adversarial_lead':
    'how the result breaks: empty or huge input, missing files, a broken link, a request the feature must refuse',
};

/**
 * The review brief of a lead (a template like a scenario brief: `{{context}}` then the `Request:` line). The
 * scenario's own brief is the lead's planning brief; this one asks for a verdict on what was written.
 */
export function reviewBrief(role: string): string {
  const name = role.replace(/^L\d\./, '').replace(/_/g, ' ');
  return [
    `You are the ${name}, now reviewing the executor's result, which the verifier has passed against the acceptance`,
    `criteria. Look for ${FOCUS[role] ?? 'anything that makes the result unsafe or broken'}.`,
    '',
    'Reply with ONLY one JSON object on one line: no prose, no code fence:',
    '{"verdict":"pass"|"fail","findings":[{"severity":"blocking"|"major"|"minor","finding":"<what is wrong>","fix":"<what to change, naming the file>"}]}',
    '',
    '- "blocking": the result must not ship as it is; the executor gets your fix and tries again.',
    '- "major" and "minor" are reported but do not stop the result.',
    '- "fail" exactly when a finding is blocking; with no findings, {"verdict":"pass","findings":[]}.',
    '- Judge what was written, not style, and nothing the request did not ask for.',
    '',
    'Earlier outputs:',
    '{{context}}',
    '',
    'Request:',
    '{{request}}',
    '',
  ].join('\n');
}

/** Reads a lead's review; anything unreadable is `unknown` with no findings. */
export function parseReview(role: string, output: string): Review {
  const match = /\{[\s\S]*\}/.exec(output);
  if (!match) return { verdict: 'unknown', findings: [], deltas: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(match[0]);
  } catch {
    return { verdict: 'unknown', findings: [], deltas: [] };
  }
  const raw = (parsed as { findings?: unknown }).findings;
  const findings: ReviewFinding[] = (Array.isArray(raw) ? raw : []).flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { severity, finding, fix } = item as Record<string, unknown>;
    if (typeof finding !== 'string' || finding.trim() === '') return [];
    const level = (FINDING_SEVERITIES as readonly unknown[]).includes(severity)
      ? (severity as FindingSeverity)
      : 'major';
    return [{ severity: level, finding: finding.trim(), fix: typeof fix === 'string' ? fix.trim() : '' }];
  });
  const blocking = findings.filter((f) => f.severity === 'blocking');
  return {
    verdict: blocking.length > 0 ? 'fail' : 'pass',
    findings,
    deltas: blocking.map((f) => `${role}: ${f.fix || f.finding}`),
  };
}
