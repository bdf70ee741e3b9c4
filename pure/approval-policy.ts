import { z } from 'zod';

/**
 * Approval policies (docs/approval-policies.md): a project's ordered rules that decide an approval without a person,
 * and its reminder schedule for waits on a person (docs/reminders.md). Pure: the workflow evaluates a policy it got
 * from an activity, the dry-run endpoint evaluates one against stored approvals, both with this code.
 */

/** A directory a rule's `paths_under` names: relative, no `..`, no leading `/`; `docs` and `docs/` are the same. */
const DirPrefix = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .refine((p) => !p.startsWith('/') && !p.split('/').includes('..'), 'a relative directory without ..')
  .transform((p) => p.replace(/^\.\//, '').replace(/\/+$/, ''))
  .refine((p) => p.length > 0, 'a directory, not the workspace root');

const RuleId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'lowercase letters, digits, _ and -; at most 64');

export const ApprovalRuleSchema = z.strictObject({
  id: RuleId,
  /** Every condition given must hold; a rule without conditions matches every approval. */
  when: z
    .strictObject({
      /** The job's cost so far (USD) is at most this. */
      max_cost_usd: z.number().min(0).max(1_000_000).optional(),
      /** Every path of the request lies under one of these directories, and there is at least one path. */
      paths_under: z.array(DirPrefix).min(1).max(50).optional(),
      /** The request names a branch, and it is none of these. */
      not_branches: z.array(z.string().trim().min(1).max(200)).min(1).max(50).optional(),
      /** The action matches one of these patterns (whole action, case-insensitive, `*` any run of characters). */
      actions: z.array(z.string().trim().min(1).max(200)).min(1).max(50).optional(),
      /** The requesting level's role is one of these. */
      roles: z.array(z.string().trim().min(1).max(100)).min(1).max(50).optional(),
    })
    .default({}),
  decide: z.enum(['approve', 'reject']),
});
export type ApprovalRule = z.infer<typeof ApprovalRuleSchema>;

const Seconds = z
  .number()
  .int()
  .min(1)
  .max(30 * 86_400);

/**
 * How long a question or an approval waits before a reminder, an escalation and a timeout, each counted from the
 * moment the person was asked. Each step is optional; those given come in this order.
 */
export const ReminderScheduleSchema = z
  .strictObject({
    remind_after_seconds: Seconds.optional(),
    escalate_after_seconds: Seconds.optional(),
    /** `role:<name>` (a team role that takes over) or `project_owners`. */
    escalate_to: z
      .union([z.literal('project_owners'), z.string().regex(/^role:[A-Za-z0-9_.-]{1,64}$/, 'role:<name>')])
      .optional(),
    timeout_after_seconds: Seconds.optional(),
    /** What an approval is decided as when it times out; without it approvals never time out. */
    timeout_decision: z.enum(['approve', 'reject']).optional(),
    /** The answer a question gets when it times out; without it questions never time out. */
    timeout_answer: z.string().trim().min(1).max(2_000).optional(),
  })
  .superRefine((s, ctx) => {
    const steps = [s.remind_after_seconds, s.escalate_after_seconds, s.timeout_after_seconds].filter(
      (v): v is number => v !== undefined,
    );
    if (steps.some((v, i) => i > 0 && v <= steps[i - 1]!)) {
      ctx.addIssue({ code: 'custom', message: 'remind, escalate and timeout must come in that order, each later' });
    }
    if ((s.escalate_after_seconds === undefined) !== (s.escalate_to === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'escalate_after_seconds and escalate_to go together' });
    }
    const hasDefault = s.timeout_decision !== undefined || s.timeout_answer !== undefined;
    if ((s.timeout_after_seconds === undefined) === hasDefault) {
      ctx.addIssue({
        code: 'custom',
        message: 'timeout_after_seconds needs timeout_decision or timeout_answer (and they need it)',
      });
    }
  });
export type ReminderSchedule = z.infer<typeof ReminderScheduleSchema>;

export const ApprovalPolicySchema = z
  .strictObject({
    /** Evaluated in order; the first rule that matches decides. No match: a person decides. */
    rules: z.array(ApprovalRuleSchema).max(100).default([]),
    reminders: ReminderScheduleSchema.optional(),
  })
  .refine((p) => new Set(p.rules.map((r) => r.id)).size === p.rules.length, 'rule ids must not repeat');
export type ApprovalPolicy = z.infer<typeof ApprovalPolicySchema>;

/** What a policy sees of an approval request: all of it is recorded on the approval (`request`). */
export interface ApprovalFacts {
  action: string;
  reason: string;
  /** The requesting level's role. */
  role: string;
  /** Files the level wrote so far, paths the request named, paths in the action; sorted, no repeats. */
  paths: string[];
  /** The job's cost so far in USD; null when unknown (an approval recorded before policies). */
  cost_usd: number | null;
  /** The branch the request names, if any. */
  branch: string | null;
}

export interface PolicyVerdict {
  decision: 'approve' | 'reject';
  rule_id: string;
}

/** `decided_by` of an approval a rule decided. */
export const policyDecider = (ruleId: string) => `policy:${ruleId}`;
/** `decided_by` of an approval decided by its timeout. */
export const TIMEOUT_DECIDER = 'timeout';

/** The first rule of `policy` that matches `facts`, as a decision; undefined: a person decides. */
export function evaluatePolicy(
  policy: ApprovalPolicy | null | undefined,
  facts: ApprovalFacts,
): PolicyVerdict | undefined {
  const rule = policy?.rules.find((r) => matches(r, facts));
  return rule ? { decision: rule.decide, rule_id: rule.id } : undefined;
}

function matches({ when }: ApprovalRule, facts: ApprovalFacts): boolean {
  if (when.max_cost_usd !== undefined && (facts.cost_usd === null || facts.cost_usd > when.max_cost_usd)) return false;
  if (when.paths_under !== undefined) {
    const dirs = when.paths_under;
    if (facts.paths.length === 0) return false;
    if (!facts.paths.every((p) => dirs.some((d) => isUnder(p, d)))) return false;
  }
  if (when.not_branches !== undefined && (facts.branch === null || when.not_branches.includes(facts.branch)))
    return false;
  if (when.actions !== undefined && !when.actions.some((a) => globMatch(a.toLowerCase(), facts.action.toLowerCase())))
    return false;
  if (when.roles !== undefined && !when.roles.includes(facts.role)) return false;
  return true;
}

/** `path` (as written: a `..` segment or a leading `/` is never under anything) lies in directory `dir`. */
function isUnder(path: string, dir: string): boolean {
  const p = path.replace(/^\.\//, '');
  if (p.startsWith('/') || p.split('/').includes('..')) return false;
  return p.startsWith(`${dir}/`);
}

/** `*` matches any run of characters, everything else itself; linear, so a pattern cannot make it backtrack. */
export function globMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === text[t]) {
      p += 1;
      t += 1;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p;
      mark = t;
      p += 1;
    } else if (star !== -1) {
      p = star + 1;
      mark += 1;
      t = mark;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p += 1;
  return p === pattern.length;
}

// A path token: has a `/` or ends in a file extension; quotes and trailing punctuation are not part of it.
const PATH_TOKEN = /^(?:[\w.-]+\/)*[\w.-]+(?:\/|\.[A-Za-z0-9]{1,10})$/;

/** The path-like words of an action (`write docs/guide.md` → `docs/guide.md`). */
export function pathsInAction(action: string): string[] {
  return action
    .split(/\s+/)
    .map((w) => w.replace(/^["'`(]+|["'`),;:]+$/g, '').replace(/\.$/, ''))
    .filter((w) => w.length <= 300 && PATH_TOKEN.test(w));
}

/** The facts of a request, its paths gathered from the three places they come from. */
export function approvalFacts(input: {
  action: string;
  reason: string;
  role: string;
  writtenFiles: readonly string[];
  namedPaths?: readonly string[];
  costUsd: number | null;
  branch?: string | null;
}): ApprovalFacts {
  const paths = [...new Set([...input.writtenFiles, ...(input.namedPaths ?? []), ...pathsInAction(input.action)])];
  return {
    action: input.action,
    reason: input.reason,
    role: input.role,
    paths: paths.sort(),
    cost_usd: input.costUsd,
    branch: input.branch ?? null,
  };
}
