import * as z from 'zod/mini';

/** Answers of the people-in-the-loop routes (questions, human tasks, names), checked at the boundary like ./schemas.ts. */

export const QuestionItem = z.looseObject({
  job_id: z.string(),
  workflow_id: z.string(),
  project_slug: z.nullable(z.string()),
  sequence: z.number(),
  call_id: z.string(),
  role: z.string(),
  question: z.string(),
  asked_at: z.string(),
  state: z.string(),
  answer: z.nullable(z.string()),
  answered_by: z.nullable(z.string()),
  answered_at: z.nullable(z.string()),
});
export type QuestionItem = z.infer<typeof QuestionItem>;
export const QuestionList = z.looseObject({ questions: z.array(QuestionItem), next_cursor: z.nullable(z.string()) });

export const HumanTask = z.looseObject({
  task_id: z.string(),
  job_id: z.string(),
  workflow_id: z.string(),
  role: z.string(),
  title: z.string(),
  detail: z.string(),
  assignee: z.string(),
  due_at: z.nullable(z.string()),
  state: z.string(),
  completed_by: z.nullable(z.string()),
  completed_at: z.nullable(z.string()),
  note: z.nullable(z.string()),
  created_at: z.string(),
});
export type HumanTask = z.infer<typeof HumanTask>;
export const HumanTaskList = z.looseObject({ tasks: z.array(HumanTask) });

export const Person = z.looseObject({ id: z.string(), name: z.nullable(z.string()), email: z.string() });
export type Person = z.infer<typeof Person>;
export const PeopleList = z.looseObject({ people: z.array(Person) });
