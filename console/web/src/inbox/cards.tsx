import { useState, type FormEvent } from 'react';
import * as z from 'zod/mini';
import { call } from '../api';
import { HumanTask } from '../people-schemas';
import { ErrorNote } from '../problem';
import { Approval } from '../schemas';
import { Time } from '../time-tag';
import { useAction } from '../use-action';
import { notifyNeedsYouChanged } from './use-needs-you';
import './inbox.css';

/** An `ask_user` question answered in place (`POST /v1/jobs/:id/resume` with its `call_id`). */
export function AnswerForm({
  jobId,
  callId,
  onAnswered,
}: {
  jobId: string;
  callId: string;
  onAnswered: (answer: string) => void;
}) {
  const [answer, setAnswer] = useState('');
  const { busy, error, run } = useAction();
  const field = `answer-${jobId}-${callId}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(async () => {
      await call(`/api/v1/jobs/${encodeURIComponent(jobId)}/resume`, z.unknown(), {
        method: 'POST',
        body: { call_id: callId, answer },
      });
      notifyNeedsYouChanged();
      onAnswered(answer);
    });
  }

  return (
    <form className="answer" onSubmit={(e) => void submit(e)}>
      <label htmlFor={field}>Your answer</label>
      <textarea id={field} required rows={2} value={answer} onChange={(e) => setAnswer(e.target.value)} />
      <ErrorNote error={error} />
      <button type="submit" disabled={busy}>
        Send answer
      </button>
    </form>
  );
}

/** An approval decided in place (`POST /v1/approvals/:id/decide`), with an optional comment. */
export function DecideButtons({
  approvalId,
  label,
  onDecided,
}: {
  approvalId: string;
  label: string;
  onDecided: (decision: Approval) => void;
}) {
  const [comment, setComment] = useState('');
  const { busy, error, run } = useAction();
  const field = `comment-${approvalId}`;

  async function decide(decision: 'approve' | 'reject') {
    await run(async () => {
      const decided = await call(`/api/v1/approvals/${encodeURIComponent(approvalId)}/decide`, Approval, {
        method: 'POST',
        body: { decision, ...(comment.trim() ? { comment: comment.trim() } : {}) },
      });
      notifyNeedsYouChanged();
      onDecided(decided);
    });
  }

  return (
    <div className="decide">
      <label htmlFor={field}>Comment (optional)</label>
      <input id={field} value={comment} onChange={(e) => setComment(e.target.value)} />
      <div className="decide-buttons">
        <button type="button" disabled={busy} onClick={() => void decide('approve')}>
          Approve<span className="visually-hidden"> {label}</span>
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={() => void decide('reject')}>
          Reject<span className="visually-hidden"> {label}</span>
        </button>
      </div>
      <ErrorNote error={error} />
    </div>
  );
}

/** A human task's instructions, and "Done" completing it (`POST /v1/human-tasks/:id/complete`) with an optional note. */
export function TaskDone({
  task,
  onDone,
}: {
  task: { taskId: string; title: string; detail: string; dueAt: string | null };
  onDone: (task: HumanTask) => void;
}) {
  const [note, setNote] = useState('');
  const { busy, error, run } = useAction();
  const field = `note-${task.taskId}`;

  async function done(event: FormEvent) {
    event.preventDefault();
    await run(async () => {
      const completed = await call(`/api/v1/human-tasks/${encodeURIComponent(task.taskId)}/complete`, HumanTask, {
        method: 'POST',
        body: note.trim() ? { note: note.trim() } : {},
      });
      notifyNeedsYouChanged();
      onDone(completed);
    });
  }

  return (
    <form className="task-done" onSubmit={(e) => void done(e)}>
      <p className="instructions">{task.detail.trim()}</p>
      {task.dueAt ? (
        <p className="hint">
          Due <Time iso={task.dueAt} />
        </p>
      ) : null}
      <label htmlFor={field}>Note (optional)</label>
      <input id={field} value={note} onChange={(e) => setNote(e.target.value)} />
      <ErrorNote error={error} />
      <button type="submit" disabled={busy}>
        Done<span className="visually-hidden"> {task.title}</span>
      </button>
    </form>
  );
}
