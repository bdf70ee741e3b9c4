import { findJob, type JobRow } from '../db/jobs';
import type { TokenOwner } from '../db/tokens';
import { NotFoundError } from '../http/errors';
import type { JobsDeps } from './deps';

/** The org rule for every resource: visible to tokens of its org and to admin tokens; to others it does not exist. */
export function canSee(principal: TokenOwner, orgId: string | null): boolean {
  return principal.is_admin || orgId === principal.org_id;
}

/** The org a listing is limited to: the caller's, or null (every org) for an admin. */
export function orgScope(principal: TokenOwner): string | null {
  return principal.is_admin ? null : principal.org_id;
}

/** The job if the caller may see it; another org's job is reported as not found, never as forbidden. */
export async function visibleJob(deps: Pick<JobsDeps, 'pool'>, principal: TokenOwner, jobId: string): Promise<JobRow> {
  const job = await findJob(deps.pool, jobId);
  if (!job || !canSee(principal, job.org_id)) throw new NotFoundError(`job ${jobId}`);
  return job;
}
