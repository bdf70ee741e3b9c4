import { findJob, type JobRow } from '../db/jobs';
import type { TokenOwner } from '../db/tokens';
import { NotFound } from '../refusals/refusal';
import type { JobsDeps } from './deps';

/**
 * Who a request acts as: a token's owner, or, for a token that acts for users (the console's), the signed-in user the
 * console names (docs/console.md, "Acting for a user").
 */
export interface Principal extends TokenOwner {
  /** The request acts for a person through the console: a non-admin sees only what they created. */
  acting?: boolean;
}

/**
 * The rule for every resource: visible to tokens of its org and to admin tokens; to others it does not exist. A member
 * acting through the console also sees only the jobs, workflows and approvals they created (`createdBy`, given for
 * those): the console's preflight refuses the others first (403), this is the API's own check behind it.
 */
export function canSee(principal: Principal, orgId: string | null, createdBy?: string): boolean {
  if (!(principal.is_admin || orgId === principal.org_id)) return false;
  const creator = creatorScope(principal);
  return creator === null || createdBy === undefined || createdBy === creator;
}

/** The org a listing is limited to: the caller's, or null (every org) for an admin. */
export function orgScope(principal: TokenOwner): string | null {
  return principal.is_admin ? null : principal.org_id;
}

/**
 * The creator a listing is limited to: the acting user when the console acts for a non-admin (their own workflows,
 * approvals of their own jobs), else null (the org's, or every org's for an admin token).
 */
export function creatorScope(principal: Principal): string | null {
  return principal.acting && !principal.is_admin ? principal.user_id : null;
}

/**
 * The job if the caller may see it; another org's job is reported as not found, never as forbidden. `read` reads the
 * row (a read shared by concurrent callers, for a stream: the row it gets is shared and must not be mutated).
 */
export async function visibleJob(
  deps: Pick<JobsDeps, 'pool'>,
  principal: TokenOwner,
  jobId: string,
  read: (pool: JobsDeps['pool'], jobId: string) => Promise<JobRow | undefined> = findJob,
): Promise<JobRow> {
  const job = await read(deps.pool, jobId);
  if (!job || !canSee(principal, job.org_id, job.created_by)) throw new NotFound(`job ${jobId}`);
  return job;
}
