import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { HumanTaskList, QuestionList } from '../people-schemas';
import { LoadProblem, Loading } from '../problem';
import { ApprovalList, ProjectList } from '../schemas';
import { useSession } from '../session';
import { Time } from '../time-tag';
import { useResource } from '../use-resource';
import { StatusBadge } from '../workflows/status-badge';
import { AnswerForm, DecideButtons, TaskDone } from './cards';
import type { NeedsYouItem } from './needs-you';
import { personLabel, usePeople } from '../people';
import { useNeedsYou } from './use-needs-you';
import './inbox.css';

/** How many settled items the "Done recently" list shows of each kind. */
const RECENT = 20;

/**
 * `/inbox`: every question, approval and human task waiting for the signed-in person, in one list, each answered in
 * place; filterable by project (`?project=`, in the address). `/approvals` leads here.
 */
export function InboxPage() {
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const project = params.get('project') || null;
  const projects = useResource('/api/v1/projects', ProjectList);
  const needs = useNeedsYou(user, project);
  const [done, setDone] = useState<{ key: string; text: string }[]>([]);
  const settle = (item: NeedsYouItem, text: string) =>
    setDone((d) => [...d.filter((x) => x.key !== item.key), { key: item.key, text }]);

  if (needs.error && !needs.items) return <LoadProblem error={needs.error} />;
  const items = (needs.items ?? []).filter((item) => !done.some((d) => d.key === item.key));

  return (
    <section className="inbox">
      <h1>Needs you</h1>
      <div className="filters">
        <label htmlFor="inbox-project">Project</label>
        <select
          id="inbox-project"
          value={project ?? ''}
          onChange={(e) => {
            const next = new URLSearchParams(params);
            if (e.target.value) next.set('project', e.target.value);
            else next.delete('project');
            setParams(next, { replace: true });
          }}
        >
          <option value="">All projects</option>
          {(projects.data?.projects ?? []).map((p) => (
            <option key={p.slug} value={p.slug}>
              {p.name}
            </option>
          ))}
        </select>
        <span className="hint">Questions, approvals and tasks your jobs wait for; updated every few seconds.</span>
      </div>
      {done.map((d) => (
        <p key={d.key} role="status">
          {d.text}
        </p>
      ))}
      {!needs.items ? <Loading what="what waits for you" /> : null}
      {needs.items && items.length === 0 ? <p className="empty">Nothing waits for you.</p> : null}
      <ul className="inbox-list" aria-label="Waiting for you">
        {items.map((item) => (
          <li key={item.key} className="inbox-item" data-kind={item.kind}>
            <InboxItem item={item} onSettled={(text) => settle(item, text)} />
          </li>
        ))}
      </ul>
      <RecentlyDone project={project} version={(needs.items ?? []).map((i) => i.key).join(' ')} />
    </section>
  );
}

function Where({ item, project }: { item: NeedsYouItem; project: string | null }) {
  return (
    <p className="hint">
      Job <Link to={`/jobs/${encodeURIComponent(item.jobId)}`}>{item.jobId}</Link>
      {project ? ` · project ${project}` : ''} · asked <Time iso={item.at} />
    </p>
  );
}

function InboxItem({ item, onSettled }: { item: NeedsYouItem; onSettled: (text: string) => void }) {
  switch (item.kind) {
    case 'question': {
      const q = item.question;
      return (
        <>
          <h3>
            <span className="inbox-kind">Question</span>
            {q.role} asks: {q.question}
          </h3>
          <Where item={item} project={q.project_slug} />
          <AnswerForm
            jobId={q.job_id}
            callId={q.call_id}
            onAnswered={() => onSettled(`Answer sent; job ${q.job_id} continues.`)}
          />
        </>
      );
    }
    case 'approval': {
      const a = item.approval;
      return (
        <>
          <h3>
            <span className="inbox-kind">Approval</span>
            {a.role} asks to {a.action}
          </h3>
          <p>{a.reason}</p>
          <Where item={item} project={null} />
          <DecideButtons
            approvalId={a.approval_id}
            label={a.action}
            onDecided={(d) => onSettled(`Approval ${d.status}; job ${a.job_id} continues.`)}
          />
        </>
      );
    }
    case 'task': {
      const t = item.task;
      return (
        <>
          <h3>
            <span className="inbox-kind">Task</span>
            {t.title}
          </h3>
          <Where item={item} project={null} />
          <TaskDone
            task={{ taskId: t.task_id, title: t.title, detail: t.detail, dueAt: t.due_at }}
            onDone={() => onSettled(`Task “${t.title}” done; job ${t.job_id} continues.`)}
          />
        </>
      );
    }
  }
}

/** What was answered, decided or done lately, and by whom (by name or email, as the identity service knows them). */
function RecentlyDone({ project, version }: { project: string | null; version: string }) {
  const inProject = project ? `&project_slug=${encodeURIComponent(project)}` : '';
  const answered = useResource(`/api/v1/questions?state=answered&limit=${RECENT}${inProject}`, QuestionList);
  const approved = useResource(`/api/v1/approvals?status=approved&limit=${RECENT}${inProject}`, ApprovalList);
  const rejected = useResource(`/api/v1/approvals?status=rejected&limit=${RECENT}${inProject}`, ApprovalList);
  const tasks = useResource(`/api/v1/human-tasks?state=done&limit=${RECENT}${inProject}`, HumanTaskList);
  const reloads = [answered.reload, approved.reload, rejected.reload, tasks.reload];
  // What waits changed (something was answered, here or elsewhere): what was done changed with it.
  useEffect(() => {
    for (const reload of reloads) reload();
    // The reload functions are stable; only a change in what waits reads the lists again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [version]);
  const rows = [
    ...(answered.data?.questions ?? []).map((q) => ({
      key: `q:${q.job_id}:${q.call_id}`,
      at: q.answered_at ?? q.asked_at,
      by: q.answered_by,
      jobId: q.job_id,
      kind: 'Question',
      what: `${q.role} asked: ${q.question}`,
      outcome: 'answered',
      said: q.answer,
    })),
    ...[...(approved.data?.approvals ?? []), ...(rejected.data?.approvals ?? [])].map((a) => ({
      key: `a:${a.approval_id}`,
      at: a.decided_at ?? a.created_at,
      by: a.decided_by,
      jobId: a.job_id,
      kind: 'Approval',
      what: `${a.role} asked to ${a.action}`,
      outcome: a.status,
      said: a.comment,
    })),
    ...(tasks.data?.tasks ?? []).map((t) => ({
      key: `t:${t.task_id}`,
      at: t.completed_at ?? t.created_at,
      by: t.completed_by,
      jobId: t.job_id,
      kind: 'Task',
      what: t.title,
      outcome: 'done',
      said: t.note,
    })),
  ].sort((a, b) => b.at.localeCompare(a.at));
  const people = usePeople(rows.map((r) => r.by));
  const error = answered.error ?? approved.error ?? rejected.error ?? tasks.error;
  return (
    <section aria-labelledby="recent-title">
      <h2 id="recent-title">Done recently</h2>
      {error ? <LoadProblem error={error} /> : null}
      {!error && rows.length === 0 && answered.data && tasks.data ? <p className="empty">Nothing yet.</p> : null}
      <ul className="people-history">
        {rows.map((r) => (
          <li key={r.key}>
            <span className="inbox-kind">{r.kind}</span>
            {r.what} — <StatusBadge status={r.outcome} /> by {r.by ? personLabel(r.by, people) : 'someone'}{' '}
            <Time iso={r.at} /> · job <Link to={`/jobs/${encodeURIComponent(r.jobId)}`}>{r.jobId}</Link>
            {r.said ? <p className="said">“{r.said}”</p> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
