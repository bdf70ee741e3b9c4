/**
 * The final event's one-line summary. `runs` counts every level run, retries and reissues included: a retried level
 * replaces its earlier result, so counting results would under-report what ran.
 */
export function jobSummary(runs: number, verdict: string | undefined, files: readonly string[]): string {
  const ran = runs === 1 ? '1 level ran' : `${runs} levels ran`;
  const wrote = files.length > 0 ? `wrote ${files.join(', ')}` : 'wrote no files';
  return `${ran}; ${wrote}${verdict ? `; verifier: ${verdict}` : ''}.`;
}
