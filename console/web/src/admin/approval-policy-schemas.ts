import * as z from 'zod/mini';

/** The ingest API's admin approval-policy routes (docs/approval-policies.md), as the console reads them. */
export const PolicyView = z.looseObject({
  org_id: z.string(),
  project_slug: z.string(),
  policy_yaml: z.string(),
  updated_by: z.string(),
  updated_at: z.string(),
});
export type PolicyView = z.infer<typeof PolicyView>;

export const PolicyChange = z.looseObject({
  change_id: z.string(),
  change: z.enum(['set', 'removed']),
  policy_yaml: z.nullable(z.string()),
  changed_by: z.string(),
  changed_at: z.string(),
});
export type PolicyChange = z.infer<typeof PolicyChange>;
export const PolicyHistory = z.looseObject({ changes: z.array(PolicyChange) });

export const DryRunApproval = z.looseObject({
  approval_id: z.string(),
  created_at: z.string(),
  action: z.string(),
  status: z.string(),
  decided_by: z.nullable(z.string()),
  would: z.nullable(z.object({ decision: z.enum(['approve', 'reject']), rule_id: z.string() })),
});
export type DryRunApproval = z.infer<typeof DryRunApproval>;
export const DryRun = z.looseObject({
  evaluated: z.number(),
  would_approve: z.number(),
  would_reject: z.number(),
  to_a_person: z.number(),
  approvals: z.array(DryRunApproval),
});
export type DryRun = z.infer<typeof DryRun>;

/**
 * The issues of a 400 `invalid_policy`, one per line: the API joins zod's issues (`rules.0.id: …`) with `; ` (split
 * only where the next issue's path follows, as a message may hold `; ` itself); a YAML syntax error is one issue.
 */
export function policyIssues(message: string): string[] {
  return message
    .split(/; (?=[\w.]+: )/)
    .map((issue) => issue.trim())
    .filter((issue) => issue !== '');
}
