/**
 * Approval policies (docs/approval-policies.md): a project's ordered rules that decide an approval without a person,
 * and its reminder schedule for waits on a person (docs/reminders.md). Pure: the workflow evaluates a policy it got
 * from an activity, the dry-run endpoint evaluates one against stored approvals, both with this code. The zod schema
 * that checks a policy is approvals/policy-schema.ts (pure/ imports no zod).
 */

/** One rule of a policy: every condition given in `when` must hold; then `decide` is the decision. */
export interface ApprovalRule {
  id: string;
  when: {
    max_cost_usd?: number;
    /** Directories without a trailing slash (the schema normalises them). */
    paths_under?: string[];
    not_branches?: string[];
    actions?: string[];
    roles?: string[];
  };
  decide: 'approve' | 'reject';
}

/** A wait's reminder schedule (docs/reminders.md); approvals/policy-schema.ts checks one. */
export interface ReminderSchedule {
  remind_after_seconds?: number;
  escalate_after_seconds?: number;
  /** `role:<name>` or `project_owners`. */
  escalate_to?: string;
  timeout_after_seconds?: number;
  timeout_decision?: 'approve' | 'reject';
  timeout_answer?: string;
}

/** A project's approval policy as checked by approvals/policy-schema.ts: rules in order, and its reminders. */
export interface ApprovalPolicy {
  rules: ApprovalRule[];
  reminders?: ReminderSchedule;
  /**
   * What happens to a `run_command` call no pattern of its level's allowlist matches (docs/toolbelt.md): `refuse`
   * (the default) answers the model that it is not allowed; `approval` makes it an approval request (action
   * `run_command <command>`), which the rules see like any other, and the command runs only once approved.
   */
  unlisted_commands?: 'refuse' | 'approval';
}

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
