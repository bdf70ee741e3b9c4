/**
 * One name per state on every page (docs/console.md, "Needs you"). The spec names a workflow waiting on a person
 * `pending` (its latest job is `paused`, or it has no job yet), the job row says `paused`: the console says `paused`
 * for both, so the list, the workflow page and the job page agree. Every other status is shown as the API says it.
 */
export function stateName(status: string): string {
  return status === 'pending' ? 'paused' : status;
}
