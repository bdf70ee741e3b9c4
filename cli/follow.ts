// `keel job` and `keel watch`: a job's events rendered live (or as JSON lines) until it ends, with Ctrl-C asking
// whether to cancel the job or detach from it.
import readline from 'node:readline/promises';
import type { EventEnvelope } from '../events/envelope';
import { STREAM_STOPPING_COMMENT } from '../events/stream-comments';
import { ApiError } from './api-error';
import { ApiUnreachable, cancelJob, decideApproval, resumeJob, type ApiTarget } from './api';
import { streamJobEvents, streamJobMessages, type JobStreamMessage } from './event-stream';
import { LivePreview } from './live-preview';
import { renderEvent, type RenderStyle } from './render';
import { OFFLINE_REROUTE } from './render-product';
import { answerCommand } from './render-jobs';
import { createSpinner } from './spinner';

/** The exit code of a follow that was interrupted (detached) rather than ended by the job. */
export const DETACHED = 130;

export interface FollowOptions {
  target: ApiTarget;
  jobId: string;
  /** One JSON object per event on stdout, nothing else there. */
  json: boolean;
  /** With `json`: the live model output too, one `{"delta": …}` line per delta (docs/live-output.md). */
  deltas?: boolean;
  style: RenderStyle;
  /** `keel job`: answer questions and approvals on the terminal; `keel watch` says how to answer instead. */
  answer: boolean;
  /** Lines said on stderr before the first event, once Ctrl-C is handled (so a Ctrl-C after them detaches). */
  preface?: string[];
}

/** Follows the job from its first event (a replay, then live) to `final` (0) or `error` (1); Ctrl-C: see onCtrlC. */
export async function followJob(options: FollowOptions): Promise<number> {
  const { target, jobId, json, style } = options;
  const interactive = Boolean(process.stdin.isTTY);
  const spinner = createSpinner(process.stderr, !json);
  const stop = new AbortController();
  /** What the job said while the cancel-or-detach question is open, shown after it: stdout lines and stderr notes. */
  let held: { line: string; to: 'out' | 'note' }[] | undefined;
  let detached = false;
  let prompting: AbortController | undefined;
  /** The cancel-or-detach question while it is asked, and the Ctrl-C being handled (question, then cancel). */
  let asking: AbortController | undefined;
  let handling: Promise<void> | undefined;

  const out = (line: string) => {
    if (held) held.push({ line, to: 'out' });
    else {
      spinner.clear();
      console.log(line);
    }
  };
  const note = (line: string) => {
    spinner.clear();
    console.error(line);
  };
  /** A note about an event: held with the events while the question is open, so it does not land on its line. */
  const noteOnEvent = (line: string) => (held ? held.push({ line, to: 'note' }) : note(line));
  const detach = () => {
    detached = true;
    held = undefined;
    note(`detached from job ${jobId}; it goes on. Reattach: keel watch ${jobId}`);
    stop.abort();
  };

  /** Ctrl-C: on a terminal, cancel the job or detach (a second Ctrl-C detaches); without one, detach. */
  const onCtrlC = async () => {
    if (detached) return;
    if (!interactive || held) return detach();
    held = [];
    spinner.pause();
    if (prompting) {
      // The answer prompt gives the terminal back first: two readline interfaces on one stdin lose keystrokes.
      prompting.abort();
      await new Promise((resolve) => setImmediate(resolve));
    }
    asking = new AbortController();
    const choice = await askCancelOrDetach(jobId, asking.signal);
    asking = undefined;
    if (choice === 'detach') return detach();
    if (choice === 'cancel') {
      try {
        await cancelJob(target, jobId);
        note(`cancelling job ${jobId}…`);
      } catch (err) {
        note(`could not cancel: ${(err as Error).message}`);
      }
    }
    const lines = held;
    held = undefined;
    for (const { line, to } of lines ?? []) (to === 'out' ? out : note)(line);
    spinner.resume();
  };
  const onSignal = () => {
    const run = onCtrlC();
    handling ??= run.finally(() => (handling = undefined));
  };
  /**
   * The job ended while a Ctrl-C was handled: a question still open no longer applies, and a cancel under way (its
   * `error` event can arrive before the answer to the cancel request) says so before the held lines, the ending one
   * included, are printed and the CLI exits.
   */
  const settleCtrlC = async () => {
    asking?.abort();
    await handling;
  };
  process.on('SIGINT', onSignal);
  for (const line of options.preface ?? []) note(line);

  let last = 0;
  let serverStopping = false;
  const livePreview = !json && process.stderr.isTTY ? new LivePreview() : undefined;
  let offlineSaid = false;
  try {
    for (let attempt = 0; attempt < 5 && !detached; attempt += 1) {
      try {
        const streamOptions = {
          ...target,
          jobId,
          lastEventId: last,
          signal: stop.signal,
          onComment: (comment: string) => (serverStopping ||= comment === STREAM_STOPPING_COMMENT),
        };
        // On a terminal the model output streams under the spinner; --json and pipes read durable events only.
        const messages =
          livePreview || (json && options.deltas)
            ? streamJobMessages(streamOptions)
            : asMessages(streamJobEvents(streamOptions));
        for await (const message of messages) {
          if (message.type === 'delta') {
            if (json) out(JSON.stringify({ delta: message.delta }));
            livePreview?.apply(message.delta);
            spinner.preview(livePreview?.lines(spinner.columns) ?? []);
            continue;
          }
          const event = message.event;
          attempt = 0;
          last = event.sequence;
          if (event.kind === 'level_started') spinner.update(`${event.agent_role} working…`);
          if (json) out(JSON.stringify(event));
          else {
            const line = renderEvent(event, style);
            // Offline, every level is rerouted to the demo model for the same reason: a person needs to read it once.
            const offlineNote = event.kind === 'provider_fallback' && event.payload.reason === OFFLINE_REROUTE;
            if (line && !(offlineNote && offlineSaid)) out(line);
            if (offlineNote) offlineSaid = true;
          }
          if (event.kind === 'final' || event.kind === 'error') {
            await settleCtrlC();
            return event.kind === 'final' ? 0 : 1;
          }
          if (isWaitingForPerson(event)) {
            spinner.update(`${event.agent_role} waiting for a person…`);
            if (options.answer && interactive && !json) {
              prompting = new AbortController();
              spinner.pause();
              try {
                await answerOnTerminal(target, event, prompting.signal, onSignal);
              } finally {
                prompting = undefined;
                if (!held) spinner.resume();
              }
            } else noteOnEvent(howToAnswer(event));
          }
        }
        if (serverStopping) {
          note(`Keel stopped; job ${jobId} goes on when Keel starts again. Reattach: keel watch ${jobId}`);
          return 1;
        }
      } catch (err) {
        if (detached) return DETACHED;
        if (err instanceof ApiError || err instanceof ApiUnreachable) throw err;
        note(`stream interrupted (${(err as Error).message}); reconnecting after event ${last}`);
      }
    }
    if (detached) return DETACHED;
    note(`the stream ended without a terminal event; reattach: keel watch ${jobId}`);
    return 1;
  } finally {
    process.off('SIGINT', onSignal);
    spinner.stop();
  }
}

async function* asMessages(events: AsyncGenerator<EventEnvelope>): AsyncGenerator<JobStreamMessage> {
  for await (const event of events) yield { type: 'event', event };
}

function isWaitingForPerson(event: EventEnvelope): boolean {
  return event.kind === 'ask_user' || event.kind === 'approval_requested' || event.kind === 'human_task_assigned';
}

function howToAnswer(event: EventEnvelope): string {
  const p = event.payload;
  // For someone without Keel: the event's one-time answer link (docs/answer-links.md), when the deployment signs them.
  const link = typeof p.answer_url === 'string' ? `\n  (or share this one-time answer link: ${p.answer_url})` : '';
  if (event.kind === 'ask_user') return `  (answer: ${answerCommand(event.job_id, String(p.call_id))})${link}`;
  if (event.kind === 'approval_requested') return `  (decide: keel approve ${String(p.approval_id)} [--reject])${link}`;
  return `  (when done: POST /v1/human-tasks/${String(p.task_id)}/complete)${link}`;
}

/** `ended`: the job ended while the question was open (`jobEnded` aborted), so there is nothing to decide. */
async function askCancelOrDetach(jobId: string, jobEnded: AbortSignal): Promise<'cancel' | 'detach' | 'ended'> {
  const terminal = readline.createInterface({ input: process.stdin, output: process.stderr });
  const asked = new AbortController();
  // Ctrl-C at the prompt: detach.
  terminal.once('SIGINT', () => asked.abort());
  try {
    const reply = await terminal.question(
      `\ncancel job ${jobId}, or detach and leave it running? [c]ancel / [D]etach> `,
      { signal: AbortSignal.any([asked.signal, jobEnded]) },
    );
    return /^c/i.test(reply.trim()) ? 'cancel' : 'detach';
  } catch {
    return jobEnded.aborted ? 'ended' : 'detach';
  } finally {
    if (jobEnded.aborted) process.stderr.write('\n');
    terminal.close();
  }
}

/**
 * A person at a terminal answers where the job waits: the answer goes to POST /v1/jobs/:id/resume, an approval to
 * POST /v1/approvals/:id/decide. Ctrl-C at the prompt is Ctrl-C for the follow (cancel or detach).
 */
async function answerOnTerminal(
  target: ApiTarget,
  event: EventEnvelope,
  signal: AbortSignal,
  onCtrlC: () => void,
): Promise<void> {
  if (event.kind === 'human_task_assigned') {
    console.error(howToAnswer(event));
    return;
  }
  const terminal = readline.createInterface({ input: process.stdin, output: process.stdout });
  terminal.once('SIGINT', onCtrlC);
  const p = event.payload;
  try {
    if (event.kind === 'ask_user') {
      const answer = (await terminal.question('  your answer> ', { signal })).trim() || '(no answer)';
      await resumeJob(target, event.job_id, String(p.call_id), answer);
    } else {
      const reply = (await terminal.question('  approve? [y/N]> ', { signal })).trim().toLowerCase();
      await decideApproval(target, String(p.approval_id), reply === 'y' || reply === 'yes' ? 'approve' : 'reject');
    }
  } catch (err) {
    if (!signal.aborted) throw err;
  } finally {
    terminal.close();
  }
}
