/**
 * The gate after an executor's attempt: pass, send the work back to the executor, escalate to the L2 level that
 * issued the task, or fail the job. Pure (no I/O, no commands), so workflow code may call it and a unit test can walk
 * every branch; the job workflow emits the `gate_decision` and acts on what it returns.
 */

/** What judged the attempt: the product build that runs first (when it failed), else the verifier and the reviews. */
export type GateCheck =
  | { by: 'build'; levelId: string; deltas: string[] }
  | {
      by: 'verifier';
      levelId: string;
      verdict?: string;
      deltas: string[];
      /** The first review lead whose review blocked a result the verifier passed. */
      blocked?: { levelId: string; deltas: string[] };
    };

export interface GateInput {
  check: GateCheck;
  /** Retries of this executor since the task was (re)issued, and how many are allowed. */
  retries: number;
  maxRetries: number;
  /** The task was already sent back to its issuer once. */
  escalated: boolean;
  /** There is an L2 level that issued the task. */
  hasIssuer: boolean;
}

export interface GateOutcome {
  decision: 'pass' | 'retry' | 'escalate' | 'fail';
  /** The level whose judgement decided: the blocking reviewer, else the verifier, else the failed build. */
  levelId: string;
  /** What to fix (empty on a pass). */
  deltas: string[];
}

export function decideGate({ check, retries, maxRetries, escalated, hasIssuer }: GateInput): GateOutcome {
  const blocked = check.by === 'verifier' ? check.blocked : undefined;
  const levelId = blocked?.levelId ?? check.levelId;
  if (check.by === 'verifier' && check.verdict !== 'fail' && !blocked) return { decision: 'pass', levelId, deltas: [] };
  const deltas = blocked?.deltas ?? check.deltas;
  if (retries < maxRetries) return { decision: 'retry', levelId, deltas };
  if (escalated || !hasIssuer) return { decision: 'fail', levelId, deltas };
  return { decision: 'escalate', levelId, deltas };
}
