import { z } from 'zod';
import type { ApprovalPolicy, ApprovalRule, ReminderSchedule } from '../pure/approval-policy';

/**
 * The zod schema of a project's approval policy (docs/approval-policies.md, docs/reminders.md): what an admin may store
 * over the API, and what a stored one must still be when a workflow reads it. Evaluation is pure/approval-policy.ts.
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

export const ApprovalPolicySchema = z
  .strictObject({
    /** Evaluated in order; the first rule that matches decides. No match: a person decides. */
    rules: z.array(ApprovalRuleSchema).max(100).default([]),
    reminders: ReminderScheduleSchema.optional(),
    /** A command outside a level's allowlist: refused (the default), or sent to an approval (docs/toolbelt.md). */
    unlisted_commands: z.enum(['refuse', 'approval']).optional(),
  })
  .refine((p) => new Set(p.rules.map((r) => r.id)).size === p.rules.length, 'rule ids must not repeat');

/**
 * A policy checked against the schema, as the pure module's type (so the workflow evaluates exactly what was checked);
 * the issues, each with its path, when it does not pass.
 */
export function checkPolicy(raw: unknown): { ok: true; policy: ApprovalPolicy } | { ok: false; issues: string[] } {
  const parsed = ApprovalPolicySchema.safeParse(raw);
  if (parsed.success) return { ok: true, policy: parsed.data };
  return { ok: false, issues: parsed.error.issues.map((i) => `${i.path.join('.') || 'policy'}: ${i.message}`) };
}

// The schema's output is the pure module's type: assignments that compile only while they agree.
export type CheckedRule = ApprovalRule & z.infer<typeof ApprovalRuleSchema>;
export type CheckedSchedule = ReminderSchedule & z.infer<typeof ReminderScheduleSchema>;
