// The bare baseline's only activity (bench/job.ts): it returns at once, so what a bare job costs is Temporal's own
// scheduling, dispatch and history writes.

/** Does no work. */
async function noop(): Promise<void> {}

export const bareActivities = { noop };

export type BareActivities = typeof bareActivities;
