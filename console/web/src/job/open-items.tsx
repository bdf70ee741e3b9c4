import { useEffect, useMemo, useRef, useState } from 'react';
import { AnswerForm, DecideButtons, TaskDone } from '../inbox/cards';
import { personLabel, usePeople } from '../people';
import { HumanTaskList, QuestionList, type HumanTask, type QuestionItem } from '../people-schemas';
import { ApprovalList, type Approval } from '../schemas';
import { Time } from '../time-tag';
import { useResource } from '../use-resource';
import { StatusBadge } from '../workflows/status-badge';
import type { JobEvent } from './events';
import { peopleAsks, type PersonAsk } from './people-asks';
import '../inbox/inbox.css';

interface Settled {
  key: string;
  text: string;
}

/**
 * The job page's people in the loop: a card for each open question, approval and human task, answered in place; and,
 * once settled, each with its answer or decision and who gave it. What was asked comes from the job's events; whether
 * it is settled and by whom from the API's lists for this job, read again when the events move on.
 */
export function PeopleInTheLoop({
  jobId,
  events,
  finished,
}: {
  jobId: string;
  events: readonly JobEvent[];
  finished: boolean;
}) {
  const { asks, ended } = useMemo(() => peopleAsks(events), [events]);
  const over = finished || ended;
  const has = (kind: PersonAsk['kind']) => asks.some((a) => a.kind === kind);
  const job = encodeURIComponent(jobId);
  const questions = useResource(has('question') ? `/api/v1/questions?job_id=${job}&limit=100` : null, QuestionList);
  const approvals = useResource(has('approval') ? `/api/v1/approvals?job_id=${job}&limit=100` : null, ApprovalList);
  const tasks = useResource(has('task') ? `/api/v1/human-tasks?job_id=${job}&limit=100` : null, HumanTaskList);
  const [settled, setSettled] = useState<Settled[]>([]);

  const byCall = new Map((questions.data?.questions ?? []).map((q) => [q.call_id, q]));
  const byApproval = new Map((approvals.data?.approvals ?? []).map((a) => [a.approval_id, a]));
  const byTask = new Map((tasks.data?.tasks ?? []).map((t) => [t.task_id, t]));
  const keyOf = (ask: PersonAsk) =>
    ask.kind === 'question' ? `q:${ask.callId}` : ask.kind === 'approval' ? `a:${ask.approvalId}` : `t:${ask.taskId}`;
  const isOpen = (ask: PersonAsk): boolean => {
    if (over || settled.some((s) => s.key === keyOf(ask))) return false;
    if (ask.kind === 'question') return !ask.resulted && (byCall.get(ask.callId)?.state ?? 'open') === 'open';
    if (ask.kind === 'approval')
      return !ask.resulted && (byApproval.get(ask.approvalId)?.status ?? 'pending') === 'pending';
    return (byTask.get(ask.taskId)?.state ?? 'open') === 'open';
  };
  const open = asks.filter(isOpen);
  const past = asks.filter((ask) => !open.includes(ask));

  // Read the lists again whenever the events move on while something is open (an answer given elsewhere, a product
  // step going on after its question), and once when the job ends (the record of who answered what).
  const lastSequence = events.at(-1)?.sequence ?? 0;
  const moving = open.length > 0 ? lastSequence : -1;
  const { reload: reloadQuestions } = questions;
  const { reload: reloadApprovals } = approvals;
  const { reload: reloadTasks } = tasks;
  const signature = `${moving}|${over}|${settled.length}`;
  const readFor = useRef(signature);
  useEffect(() => {
    // The first read is the lists' own; later ones follow a change of what the page knows.
    if (readFor.current === signature) return;
    readFor.current = signature;
    reloadQuestions();
    reloadApprovals();
    reloadTasks();
  }, [signature, reloadQuestions, reloadApprovals, reloadTasks]);

  const people = usePeople([
    ...(questions.data?.questions ?? []).map((q) => q.answered_by),
    ...(approvals.data?.approvals ?? []).map((a) => a.decided_by),
    ...(tasks.data?.tasks ?? []).map((t) => t.completed_by),
    ...asks.map((a) => (a.kind === 'task' ? a.assignee : null)),
  ]);
  const label = (id: string) => personLabel(id, people);
  const settle = (ask: PersonAsk, text: string) =>
    setSettled((s) => [...s.filter((x) => x.key !== keyOf(ask)), { key: keyOf(ask), text }]);

  if (asks.length === 0) return null;
  return (
    <>
      {open.length > 0 ? (
        <section className="needs-you" aria-labelledby="needs-you-title">
          <h2 id="needs-you-title">Waiting for you</h2>
          {open.map((ask) => (
            <OpenCard key={keyOf(ask)} jobId={jobId} ask={ask} label={label} onSettled={(text) => settle(ask, text)} />
          ))}
        </section>
      ) : null}
      {/* Kept outside the cards (a card leaves as soon as the stream or the lists show the answer, which under load can
          be before the answer's own response arrives), and only while the job runs: after it ended they would mislead. */}
      {over
        ? null
        : settled.map((s) => (
            <p key={s.key} role="status">
              {s.text}
            </p>
          ))}
      {/* The record: each ask no longer waiting, with what became of it (an open one is the card above). */}
      {past.length > 0 ? (
        <section className="people-in-loop" aria-labelledby="people-title">
          <h2 id="people-title">People in the loop</h2>
          <ul className="people-history">
            {past.map((ask) => (
              <li key={keyOf(ask)} data-kind={ask.kind}>
                <History
                  ask={ask}
                  question={ask.kind === 'question' ? byCall.get(ask.callId) : undefined}
                  approval={ask.kind === 'approval' ? byApproval.get(ask.approvalId) : undefined}
                  task={ask.kind === 'task' ? byTask.get(ask.taskId) : undefined}
                  label={label}
                />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

function OpenCard({
  jobId,
  ask,
  label,
  onSettled,
}: {
  jobId: string;
  ask: PersonAsk;
  label: (id: string) => string;
  onSettled: (text: string) => void;
}) {
  switch (ask.kind) {
    case 'question':
      return (
        <div className="people-card question">
          <p>
            <strong>{ask.role}</strong> asks: {ask.question}
          </p>
          <AnswerForm
            jobId={jobId}
            callId={ask.callId}
            onAnswered={() => onSettled('Answer sent; the job continues.')}
          />
        </div>
      );
    case 'approval':
      return (
        <div className="people-card approval">
          <p>
            <strong>{ask.role}</strong> asks to <strong>{ask.action}</strong>: {ask.reason}
          </p>
          <DecideButtons
            approvalId={ask.approvalId}
            label={ask.action}
            onDecided={(a) => onSettled(`Approval ${a.status}; the job continues.`)}
          />
        </div>
      );
    case 'task':
      return (
        <div className="people-card task">
          <p>
            <strong>Task for {label(ask.assignee)}:</strong> {ask.title}
          </p>
          <TaskDone task={ask} onDone={() => onSettled(`Task “${ask.title}” done; the job continues.`)} />
        </div>
      );
  }
}

/** One ask after the fact: what was asked, then the answer, decision or completion and who gave it. */
function History({
  ask,
  question,
  approval,
  task,
  label,
}: {
  ask: PersonAsk;
  question: QuestionItem | undefined;
  approval: Approval | undefined;
  task: HumanTask | undefined;
  label: (id: string) => string;
}) {
  switch (ask.kind) {
    case 'question':
      return (
        <>
          <strong>{ask.role}</strong> asked: {ask.question}
          {question?.state === 'answered' ? (
            <p className="said">
              Answered{question.answered_by ? ` by ${label(question.answered_by)}` : ''}{' '}
              <Time iso={question.answered_at} />
              {question.answer ? `: “${question.answer}”` : ''}
            </p>
          ) : question?.state === 'unanswered' ? (
            <p className="said">Not answered before the job ended.</p>
          ) : null}
        </>
      );
    case 'approval':
      return (
        <>
          <strong>{ask.role}</strong> asked to <strong>{ask.action}</strong>: {ask.reason}
          {approval && approval.status !== 'pending' ? (
            <p className="said">
              <StatusBadge status={approval.status} /> by {approval.decided_by ? label(approval.decided_by) : 'someone'}{' '}
              <Time iso={approval.decided_at} />
              {approval.comment ? `: “${approval.comment}”` : ''}
            </p>
          ) : null}
        </>
      );
    case 'task':
      return (
        <>
          <strong>Task for {label(ask.assignee)}:</strong> {ask.title}
          {task?.state === 'done' ? (
            <p className="said">
              Done by {task.completed_by ? label(task.completed_by) : 'someone'} <Time iso={task.completed_at} />
              {task.note ? `: “${task.note}”` : ''}
            </p>
          ) : null}
        </>
      );
  }
}
