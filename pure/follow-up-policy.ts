/**
 * What a prompt does when it arrives in a workflow whose job has not finished (docs/follow-up-policies.md):
 * `amend` folds it into that job; `enqueue` starts a job that runs after it; `interrupt` stops it at its next level
 * boundary and starts a job that carries its workspace; `reject` refuses with 409 `job_running`. The database's CHECK
 * (migration 0029) and db/follow-up.ts name the same four.
 */
export const FOLLOW_UP_POLICIES = ['amend', 'enqueue', 'interrupt', 'reject'] as const;
export type FollowUpPolicy = (typeof FOLLOW_UP_POLICIES)[number];

/** The API's policy when the workflow sets none: today's behaviour. */
export const DEFAULT_FOLLOW_UP_POLICY: FollowUpPolicy = 'amend';
