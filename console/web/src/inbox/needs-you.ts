import type { Approval, SessionUser } from '../schemas';
import type { HumanTask, QuestionItem } from '../people-schemas';

/** One thing that waits for a person, whatever way the job asked. */
export type NeedsYouItem =
  | { kind: 'question'; key: string; jobId: string; at: string; question: QuestionItem }
  | { kind: 'approval'; key: string; jobId: string; at: string; approval: Approval }
  | { kind: 'task'; key: string; jobId: string; at: string; task: HumanTask };

/** Each list is read up to this many; the count then says "100+" rather than a number it cannot know. */
export const LIST_LIMIT = 100;

/**
 * The three lists the inbox and the nav count read, for one project or all. Questions and approvals are those of the
 * person's own jobs (the API scopes a member to them; an admin sees all); human tasks are org-wide by design (a
 * teammate may add the token), so a member's are those assigned to them, and an admin's all open ones.
 */
export function needsYouPaths(user: Pick<SessionUser, 'id' | 'role'>, project: string | null) {
  const inProject = project ? `&project_slug=${encodeURIComponent(project)}` : '';
  const mine = user.role === 'admin' ? '' : `&assignee=${encodeURIComponent(user.id)}`;
  return {
    questions: `/api/v1/questions?state=open&limit=${LIST_LIMIT}${inProject}`,
    // Of jobs still running: one that ended without a decision waits for nobody.
    approvals: `/api/v1/approvals?status=pending&job_active=true&limit=${LIST_LIMIT}${inProject}`,
    tasks: `/api/v1/human-tasks?state=open&job_active=true&limit=${LIST_LIMIT}${mine}${inProject}`,
  };
}

/** Questions, approvals and tasks as one list, the longest-waiting first (a queue: what was asked first is due first). */
export function needsYouItems(
  questions: readonly QuestionItem[],
  approvals: readonly Approval[],
  tasks: readonly HumanTask[],
): NeedsYouItem[] {
  const items: NeedsYouItem[] = [
    ...questions.map((q) => ({
      kind: 'question' as const,
      key: `q:${q.job_id}:${q.call_id}`,
      jobId: q.job_id,
      at: q.asked_at,
      question: q,
    })),
    ...approvals.map((a) => ({
      kind: 'approval' as const,
      key: `a:${a.approval_id}`,
      jobId: a.job_id,
      at: a.created_at,
      approval: a,
    })),
    ...tasks.map((t) => ({ kind: 'task' as const, key: `t:${t.task_id}`, jobId: t.job_id, at: t.created_at, task: t })),
  ];
  return items.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.key.localeCompare(b.key));
}

/** What the nav shows: the number, or `100+` when a list came back full (there may be more than it read). */
export function countLabel(counts: { questions: number; approvals: number; tasks: number }): string {
  const total = counts.questions + counts.approvals + counts.tasks;
  const full = [counts.questions, counts.approvals, counts.tasks].some((n) => n >= LIST_LIMIT);
  return full ? `${total}+` : String(total);
}
