import type { ChatBlock } from './web-api';

/** The action ids of Keel's buttons; /v1/chatapp/interactions dispatches on them. */
export const APPROVE_ACTION = 'keel_approve';
export const REJECT_ACTION = 'keel_reject';
export const ANSWER_ACTION = 'keel_answer';

/** The canned answers offered under a question; any reply in the thread answers it too. */
export const ANSWER_CHOICES = ['Yes', 'No', 'Your call'] as const;

export interface ChatMessage {
  text: string;
  blocks?: ChatBlock[];
}

const section = (markdown: string): ChatBlock => ({ type: 'section', text: { type: 'mrkdwn', text: markdown } });

/** The chat system's mrkdwn treats these three as control characters. */
export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export const BUSY_TEXT =
  "I'm still working on your previous message in this thread. Send this one again once I've answered.";

/** A turn admission refused (over the monthly budget, rate limited, account disabled): nothing was started. */
export function refusedText(reason: string): string {
  return `I did not start on that: ${reason}. Nothing was run.`;
}

export const START_FAILED_TEXT = 'Sorry, I could not start on that just now. Please send it again.';

export function progressMessage(level: string | undefined, state: 'working' | 'done' | 'failed'): ChatMessage {
  const text =
    state === 'done'
      ? 'Done.'
      : state === 'failed'
        ? `Stopped${level ? ` at ${level}` : ''}.`
        : `Working on it… current level: ${level ?? 'starting'}`;
  return { text, blocks: [section(escapeText(text))] };
}

export function finalMessage(summary: string, createdFiles: string[]): ChatMessage {
  const files =
    createdFiles.length > 0 ? `\n\n*Created files*\n${createdFiles.map((f) => `• \`${f}\``).join('\n')}` : '';
  const text = `${summary}${createdFiles.length > 0 ? `\n\nCreated files: ${createdFiles.join(', ')}` : ''}`;
  return { text, blocks: [section(`${escapeText(summary)}${escapeText(files)}`)] };
}

/**
 * A wait's reminder, escalation or timeout (docs/reminders.md), posted in the thread where the question or the approval
 * was: the buttons of the original message still answer it.
 */
export function waitStepMessage(
  step: 'reminder_sent' | 'escalated' | 'timed_out',
  about: { waitingFor: string; text: string; waitedSeconds: number; to?: string; people?: string[]; outcome?: string },
): ChatMessage {
  const what = about.waitingFor === 'approval' ? `the approval "${about.text}"` : `the question "${about.text}"`;
  const minutes = Math.max(1, Math.round(about.waitedSeconds / 60));
  const text =
    step === 'reminder_sent'
      ? `Reminder: ${what} has waited ${minutes} min for an answer.`
      : step === 'escalated'
        ? `Escalated to ${escalationTarget(about.to, about.people)}: ${what} is still unanswered after ${minutes} min.`
        : `Timed out: ${what} went unanswered and was settled by the default (${about.outcome ?? 'none'}).`;
  return { text, blocks: [section(escapeText(text))] };
}

/** `the project owners (ana@…, bo@…)`, `role:release-managers (cy@…)`: the target, and the people it stands for. */
function escalationTarget(to: string | undefined, people: string[] | undefined): string {
  const target = to === undefined || to === 'project_owners' ? 'the project owners' : to;
  return people && people.length > 0 ? `${target} (${people.join(', ')})` : target;
}

export function errorMessage(message: string): ChatMessage {
  const text = `Sorry, that did not work: ${message}`;
  return { text, blocks: [section(escapeText(text))] };
}

/**
 * The event's answer link (docs/answer-links.md) under a question or an approval, for someone outside the chat
 * workspace: forwarded to them, it opens a page where they answer once without an account. None without a link.
 */
function answerLinkBlock(answerUrl: string | undefined): ChatBlock[] {
  if (!answerUrl) return [];
  return [
    {
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `Someone outside this workspace can answer once with <${escapeText(answerUrl)}|this answer link> (it expires).`,
        },
      ],
    },
  ];
}

const withLink = (text: string, answerUrl: string | undefined) =>
  answerUrl
    ? `${text}
Answer link: ${answerUrl}`
    : text;

export function approvalMessage(approvalId: string, action: string, reason: string, answerUrl?: string): ChatMessage {
  const text = withLink(`Approval needed: ${action}${reason ? ` (${reason})` : ''}`, answerUrl);
  return {
    text,
    blocks: [
      section(`*Approval needed*\n${escapeText(action)}${reason ? `\n_${escapeText(reason)}_` : ''}`),
      {
        type: 'actions',
        block_id: `approval:${approvalId}`,
        elements: [
          { type: 'button', action_id: APPROVE_ACTION, style: 'primary', text: plain('Approve'), value: approvalId },
          { type: 'button', action_id: REJECT_ACTION, style: 'danger', text: plain('Reject'), value: approvalId },
        ],
      },
      ...answerLinkBlock(answerUrl),
    ],
  };
}

export function approvalDecidedMessage(action: string, decision: 'approve' | 'reject', userId: string): ChatMessage {
  const text = `${decision === 'approve' ? 'Approved' : 'Rejected'} by <@${userId}>: ${action}`;
  return {
    text,
    blocks: [section(`${decision === 'approve' ? 'Approved' : 'Rejected'} by <@${userId}>: ${escapeText(action)}`)],
  };
}

/** An answer button's value: which question of which job, and the answer. */
export interface AnswerValue {
  job_id: string;
  call_id: string;
  answer: string;
}

export function questionMessage(jobId: string, callId: string, question: string, answerUrl?: string): ChatMessage {
  const text = withLink(`Question: ${question}\nReply in this thread to answer.`, answerUrl);
  return {
    text,
    blocks: [
      section(`*Question*\n${escapeText(question)}\n_Reply in this thread, or pick an answer:_`),
      {
        type: 'actions',
        block_id: `question:${callId}`,
        elements: ANSWER_CHOICES.map((answer) => ({
          type: 'button',
          action_id: `${ANSWER_ACTION}:${answer}`,
          text: plain(answer),
          value: JSON.stringify({ job_id: jobId, call_id: callId, answer } satisfies AnswerValue),
        })),
      },
      ...answerLinkBlock(answerUrl),
    ],
  };
}

export function answeredMessage(question: string, answer: string, userId: string): ChatMessage {
  const text = `${question}\nAnswered by <@${userId}>: ${answer}`;
  return { text, blocks: [section(`${escapeText(question)}\nAnswered by <@${userId}>: ${escapeText(answer)}`)] };
}

function plain(text: string) {
  return { type: 'plain_text', text };
}
