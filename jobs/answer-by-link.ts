import type { FastifyBaseLogger } from 'fastify';
import type { AnswerLinkSettings } from '../answer-links/config';
import { answerLinkId, verifyAnswerLink, type AnswerLinkClaims } from '../answer-links/token';
import { claimLink, findLinkedQuestion, linkUsed, releaseLink } from '../db/answer-links';
import { getApproval } from '../db/approvals';
import { getHumanTask } from '../db/human-tasks';
import { findJob, isTerminalStatus, type JobRow } from '../db/jobs';
import { recordAnswer } from '../db/questions';
import { Refusal } from '../refusals/refusal';
import { completeHumanTaskBy } from './complete-human-task';
import { decideApprovalBy } from './decide-approval';
import type { JobsDeps } from './deps';
import { redactPrompt } from './redact';
import { resumeJob, waitForAnswerer } from './resume';

/** What a link is for, as its page shows it. */
export type LinkTarget =
  | { kind: 'question'; job_id: string; call_id: string; question: string }
  | { kind: 'approval'; job_id: string; approval_id: string; action: string; reason: string }
  | { kind: 'task'; job_id: string; task_id: string; title: string; detail: string; assignee: string };

/**
 * A link's state. `open`: it may be used now. Refused: `tampered` (not a link this deployment signed), `used` (answered
 * already, by this link or through any other channel; `answered_by` says who when it is recorded), `expired`, `closed`
 * (the job ended, or what it asked is gone). docs/answer-links.md maps them to 403 and 410.
 */
export type LinkState =
  | { state: 'open'; target: LinkTarget; expires_at: number }
  | { state: 'tampered' }
  | { state: 'used'; target: LinkTarget; answered_by: string | null }
  | { state: 'expired'; target: LinkTarget; expired_at: number }
  | { state: 'closed'; reason: string };

/** What a submission did: `answered` (this link's answer was taken) or the link's refusal. */
export type LinkOutcome =
  { state: 'answered'; target: LinkTarget; answered_by: string } | Exclude<LinkState, { state: 'open' }>;

/** What a person submits on the page; which fields count depends on the link's kind. */
export interface LinkSubmission {
  answer?: string;
  decision?: 'approve' | 'reject';
  comment?: string;
  note?: string;
}

interface Loaded {
  job: JobRow;
  target: LinkTarget;
  /** Who answered already, through any channel, or undefined while open. */
  answeredBy?: string | null;
}

/** The job and target a verified link names, or the `closed` reason when either is gone. */
async function load(deps: JobsDeps, claims: AnswerLinkClaims): Promise<Loaded | string> {
  const job = await findJob(deps.pool, claims.job_id);
  if (!job) return 'the job this link belongs to no longer exists';
  if (claims.kind === 'question') {
    const found = await findLinkedQuestion(deps.pool, job.job_id, claims.target);
    if (!found) return 'the job never asked this question';
    const target: LinkTarget = {
      kind: 'question',
      job_id: job.job_id,
      call_id: claims.target,
      question: found.question,
    };
    return { job, target, ...(found.answered_by !== null ? { answeredBy: found.answered_by } : {}) };
  }
  if (claims.kind === 'approval') {
    const approval = await getApproval(deps.pool, claims.target);
    if (!approval || approval.job_id !== job.job_id) return 'this approval no longer exists';
    const target: LinkTarget = {
      kind: 'approval',
      job_id: job.job_id,
      approval_id: approval.approval_id,
      action: approval.action,
      reason: approval.reason,
    };
    return { job, target, ...(approval.status !== 'pending' ? { answeredBy: approval.decided_by } : {}) };
  }
  const task = await getHumanTask(deps.pool, claims.target);
  if (!task || task.job_id !== job.job_id) return 'this task no longer exists';
  const target: LinkTarget = {
    kind: 'task',
    job_id: job.job_id,
    task_id: task.task_id,
    title: task.title,
    detail: task.detail,
    assignee: task.assignee,
  };
  return { job, target, ...(task.state === 'done' ? { answeredBy: task.completed_by } : {}) };
}

/**
 * The state of the link `token` at `nowMs`, checked in this order: its signature (tampered), whether what it names
 * still exists (closed), whether it was answered through any channel or this link was used (used), its expiry
 * (expired), whether the job ended (closed). Reads only; never throws a refusal.
 */
export async function answerLinkState(
  deps: JobsDeps,
  settings: AnswerLinkSettings,
  token: string,
  nowMs: number = Date.now(),
): Promise<LinkState & { claims?: AnswerLinkClaims }> {
  const claims = verifyAnswerLink(token, settings.secret);
  if (!claims) return { state: 'tampered' };
  const loaded = await load(deps, claims);
  if (typeof loaded === 'string') return { state: 'closed', reason: loaded };
  const { target, job } = loaded;
  if (loaded.answeredBy !== undefined) return { state: 'used', target, answered_by: loaded.answeredBy };
  if (await linkUsed(deps.pool, answerLinkId(token))) {
    return { state: 'used', target, answered_by: `link:${answerLinkId(token)}` };
  }
  if (nowMs >= claims.expires_at * 1000) return { state: 'expired', target, expired_at: claims.expires_at };
  if (isTerminalStatus(job.status)) return { state: 'closed', reason: `the job has ended (${job.status})` };
  return { state: 'open', target, expires_at: claims.expires_at, claims };
}

/**
 * Uses the link: answers the question, decides the approval or completes the task through the same functions as the
 * API (resume Update, decideApprovalBy, completeHumanTaskBy), recorded as answered by `link:<link id>`. The first valid
 * answer wins whatever its channel: a link that loses, or is used a second time, is `used` with the winner's name.
 * Throws a Refusal only for what a retry may fix (the job did not take the answer in time: 503 job_unresponsive) and
 * an `invalid` one for an empty answer; every other outcome is returned.
 */
export async function useAnswerLink(
  deps: JobsDeps,
  settings: AnswerLinkSettings,
  token: string,
  submission: LinkSubmission,
  log: FastifyBaseLogger,
): Promise<LinkOutcome> {
  const current = await answerLinkState(deps, settings, token);
  if (current.state !== 'open') return current;
  const { target, claims } = current;
  const linkId = answerLinkId(token);
  const by = `link:${linkId}`;
  const claimed = await claimLink(deps.pool, {
    linkId,
    jobId: target.job_id,
    kind: target.kind,
    targetId: claims!.target,
    expiresAt: new Date(claims!.expires_at * 1000),
  });
  if (!claimed) return { state: 'used', target, answered_by: by };
  try {
    return await answerAs(deps, target, by, submission, log);
  } catch (err) {
    await releaseLink(deps.pool, linkId);
    if (err instanceof Refusal && err.kind === 'conflict') return lost(deps, target);
    if (err instanceof Refusal && err.kind === 'not_found') return { state: 'closed', reason: 'it no longer exists' };
    throw err;
  }
}

/** Hands the answer over; a Refusal when someone else answered first (conflict) or what it answers is gone. */
async function answerAs(
  deps: JobsDeps,
  target: LinkTarget,
  by: string,
  submission: LinkSubmission,
  log: FastifyBaseLogger,
): Promise<LinkOutcome> {
  if (target.kind === 'question') {
    const job = (await findJob(deps.pool, target.job_id))!;
    const answer = submission.answer ?? '';
    const taken = await resumeJob(deps, job, { call_id: target.call_id, answer }, log);
    await recordAnswer(deps.pool, { jobId: job.job_id, callId: target.call_id, answer: taken, answeredBy: by });
  } else if (target.kind === 'approval') {
    const comment = submission.comment ? redactPrompt(submission.comment).text : undefined;
    await decideApprovalBy(deps, by, target.approval_id, submission.decision ?? 'reject', comment, log);
  } else {
    const note = submission.note ? redactPrompt(submission.note).text : undefined;
    await completeHumanTaskBy(deps, by, target.task_id, note, log);
  }
  return { state: 'answered', target, answered_by: by };
}

/** The link lost to an answer from another channel (or the job stopped waiting): who won, when it is recorded. */
async function lost(deps: JobsDeps, target: LinkTarget): Promise<LinkOutcome> {
  if (target.kind === 'question') {
    const who = await waitForAnswerer(deps, target.job_id, target.call_id);
    if (who !== null) return { state: 'used', target, answered_by: who };
    const job = await findJob(deps.pool, target.job_id);
    if (job && isTerminalStatus(job.status)) return { state: 'closed', reason: `the job has ended (${job.status})` };
    return { state: 'used', target, answered_by: null };
  }
  if (target.kind === 'approval') {
    const approval = await getApproval(deps.pool, target.approval_id);
    return { state: 'used', target, answered_by: approval?.decided_by ?? null };
  }
  const task = await getHumanTask(deps.pool, target.task_id);
  return { state: 'used', target, answered_by: task?.completed_by ?? null };
}
