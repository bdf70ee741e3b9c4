/**
 * The effort ladder's rungs, weakest first (spec "Effort ladder"), and how to compare them. Pure: the routing
 * catalog and workflow code (a job reports the strongest rung its levels asked for) both import it.
 */
export const RUNGS = ['none', 'low', 'medium', 'high', 'max'] as const;
export type Rung = (typeof RUNGS)[number];

/** Position on the ladder: `none` is 0, `max` is 4. */
export function rungRank(rung: Rung): number {
  return RUNGS.indexOf(rung);
}

/** The strongest rung among `rungs` (undefined entries skipped); undefined when there is none. For per-job totals. */
export function strongestRung(rungs: Iterable<Rung | undefined>): Rung | undefined {
  let strongest: Rung | undefined;
  for (const rung of rungs) {
    if (rung !== undefined && (strongest === undefined || rungRank(rung) > rungRank(strongest))) strongest = rung;
  }
  return strongest;
}
