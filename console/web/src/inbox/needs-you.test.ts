import { expect, test } from '@jest/globals';
import type { HumanTask, QuestionItem } from '../people-schemas';
import type { Approval } from '../schemas';
import { countLabel, LIST_LIMIT, needsYouItems, needsYouPaths } from './needs-you';

const question = (job: string, at: string): QuestionItem => ({
  job_id: job,
  workflow_id: 'wf-1',
  project_slug: null,
  sequence: 4,
  call_id: `call-${job}`,
  role: 'L2.architect',
  question: 'Which colour?',
  asked_at: at,
  state: 'open',
  answer: null,
  answered_by: null,
  answered_at: null,
});
const approval = (job: string, at: string): Approval => ({
  approval_id: `ap-${job}`,
  job_id: job,
  workflow_id: 'wf-2',
  role: 'L3.executor',
  action: 'deploy',
  reason: 'ship it',
  status: 'pending',
  decided_by: null,
  decided_at: null,
  comment: null,
  created_at: at,
});
const task = (job: string, at: string): HumanTask => ({
  task_id: `ht-${job}`,
  job_id: job,
  workflow_id: 'wf-3',
  role: 'L2.release_manager',
  title: 'Add the Vercel token',
  detail: 'Put the token in the secrets store',
  assignee: 'u-1',
  due_at: null,
  state: 'open',
  completed_by: null,
  completed_at: null,
  note: null,
  created_at: at,
});

test('questions, approvals and tasks make one list, the longest-waiting first', () => {
  const items = needsYouItems(
    [question('job-b', '2026-11-28T07:00:02.000000Z')],
    [approval('job-c', '2026-11-28T07:00:03.000Z')],
    [task('job-a', '2026-11-28T07:00:01.000Z')],
  );
  expect(items.map((i) => [i.kind, i.jobId])).toEqual([
    ['task', 'job-a'],
    ['question', 'job-b'],
    ['approval', 'job-c'],
  ]);
  expect(new Set(items.map((i) => i.key)).size).toBe(3);
});

test('a member reads the tasks assigned to them; an admin every open one; both filter by project', () => {
  const member = needsYouPaths({ id: 'u 1', role: 'user' }, 'my-shop');
  expect(member.tasks).toBe(
    '/api/v1/human-tasks?state=open&job_active=true&limit=100&assignee=u%201&project_slug=my-shop',
  );
  expect(member.questions).toBe('/api/v1/questions?state=open&limit=100&project_slug=my-shop');
  expect(member.approvals).toBe('/api/v1/approvals?status=pending&job_active=true&limit=100&project_slug=my-shop');
  const admin = needsYouPaths({ id: 'u-2', role: 'admin' }, null);
  expect(admin.tasks).toBe('/api/v1/human-tasks?state=open&job_active=true&limit=100');
});

test('the count is exact below the list limit and says so when a list came back full', () => {
  expect(countLabel({ questions: 0, approvals: 0, tasks: 0 })).toBe('0');
  expect(countLabel({ questions: 1, approvals: 2, tasks: 1 })).toBe('4');
  expect(countLabel({ questions: LIST_LIMIT, approvals: 1, tasks: 0 })).toBe(`${LIST_LIMIT + 1}+`);
});
