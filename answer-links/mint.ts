import type { AnswerLinkSettings } from './config';
import { signAnswerLink, type AnswerLinkKind } from './token';

/** The events that ask a person, the link kind each opens, and the payload field naming what is answered. */
const LINKED_EVENTS: Record<string, { kind: AnswerLinkKind; field: string }> = {
  ask_user: { kind: 'question', field: 'call_id' },
  approval_requested: { kind: 'approval', field: 'approval_id' },
  human_task_assigned: { kind: 'task', field: 'task_id' },
};

/** The page's path under the base URL; the token follows it. */
export const ANSWER_PATH = '/answer/';

/**
 * The `answer_url` an event of `kind` carries, or undefined for a kind no person answers (or a payload without the
 * id). Expires `ttlSeconds` after `nowMs`. Called once, when the event is first stored: the stored event keeps the URL,
 * so a retried append and every reader see the same one.
 */
export function answerUrlFor(
  settings: AnswerLinkSettings,
  jobId: string,
  kind: string,
  payload: Record<string, unknown>,
  nowMs: number,
): string | undefined {
  const linked = LINKED_EVENTS[kind];
  const target = linked ? payload[linked.field] : undefined;
  if (!linked || typeof target !== 'string' || target === '') return undefined;
  const token = signAnswerLink(
    { job_id: jobId, kind: linked.kind, target, expires_at: Math.floor(nowMs / 1000) + settings.ttlSeconds },
    settings.secret,
  );
  return `${settings.baseUrl}${ANSWER_PATH}${token}`;
}
