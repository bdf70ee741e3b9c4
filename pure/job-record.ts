/**
 * The bound on the gap between a job's Temporal start and its rows' commit (jobs/record-and-start.ts). The start
 * happens inside the submission's transaction; an API killed or stalled in that window leaves a workflow whose rows
 * never commit.
 */

/** The longest a submission's transaction may sit idle waiting on Temporal before PostgreSQL ends (rolls back) it. */
export const SUBMISSION_IDLE_LIMIT_MS = 15_000;

/**
 * How long a job's workflow waits for its row before it ends itself as never recorded: well past the moment any
 * submission could still commit (the idle limit above, and a killed API's session, which PostgreSQL rolls back as
 * soon as the socket closes).
 */
export const JOB_RECORD_WAIT_MS = 60_000;

/** The KeelStatus (and workflow result status) of a job whose rows never committed. */
export const NOT_RECORDED_STATUS = 'not_recorded';
