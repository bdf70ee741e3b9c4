import { useState, type FormEvent } from 'react';
import * as z from 'zod/mini';
import { call } from '../api';
import { ErrorNote } from '../problem';
import { Approval } from '../schemas';
import type { ApprovalAsk, Question } from './derive';
import { useAction } from '../use-action';

/** An `ask_user` question answered in place (`POST /v1/jobs/:id/resume` with its `call_id`). */
export function QuestionCard({
  jobId,
  question,
  onAnswered,
}: {
  jobId: string;
  question: Question;
  onAnswered: () => void;
}) {
  const [answer, setAnswer] = useState('');
  const { busy, error, run } = useAction();
  const field = `answer-${question.callId}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(async () => {
      await call(`/api/v1/jobs/${encodeURIComponent(jobId)}/resume`, z.unknown(), {
        method: 'POST',
        body: { call_id: question.callId, answer },
      });
      onAnswered();
    });
  }

  return (
    <form className="card question" onSubmit={(e) => void submit(e)}>
      <p>
        <strong>{question.role}</strong> asks: {question.question}
      </p>
      <label htmlFor={field}>Your answer</label>
      <textarea id={field} required rows={2} value={answer} onChange={(e) => setAnswer(e.target.value)} />
      <ErrorNote error={error} />
      <button type="submit" disabled={busy}>
        Send answer
      </button>
    </form>
  );
}

/** An approval decided in place (`POST /v1/approvals/:id/decide`), here and on the approvals page. */
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
      onDecided(decided);
    });
  }

  return (
    <div className="decide">
      <label htmlFor={field}>Comment (optional)</label>
      <input id={field} value={comment} onChange={(e) => setComment(e.target.value)} />
      <button type="button" disabled={busy} onClick={() => void decide('approve')}>
        Approve<span className="visually-hidden"> {label}</span>
      </button>
      <button type="button" className="secondary" disabled={busy} onClick={() => void decide('reject')}>
        Reject<span className="visually-hidden"> {label}</span>
      </button>
      <ErrorNote error={error} />
    </div>
  );
}

export function ApprovalCard({ approval, onDecided }: { approval: ApprovalAsk; onDecided: (status: string) => void }) {
  return (
    <div className="card approval">
      <p>
        <strong>{approval.role}</strong> asks to <strong>{approval.action}</strong>: {approval.reason}
      </p>
      <DecideButtons approvalId={approval.approvalId} label={approval.action} onDecided={(a) => onDecided(a.status)} />
    </div>
  );
}
