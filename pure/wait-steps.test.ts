import { ReminderScheduleSchema } from '../approvals/policy-schema';
import { waitSteps } from './wait-steps';

const schedule = ReminderScheduleSchema.parse({
  remind_after_seconds: 60,
  escalate_after_seconds: 120,
  escalate_to: 'role:leads',
  timeout_after_seconds: 300,
  timeout_decision: 'reject',
});

test('an approval reminds, escalates, then times out with the decided default', () => {
  expect(waitSteps(schedule, 'approval')).toEqual([
    { kind: 'remind', atSeconds: 60 },
    { kind: 'escalate', atSeconds: 120, to: 'role:leads' },
    { kind: 'timeout', atSeconds: 300, decision: 'reject' },
  ]);
});

test('a question without a default answer never times out', () => {
  expect(waitSteps(schedule, 'ask_user').map((s) => s.kind)).toEqual(['remind', 'escalate']);
  expect(waitSteps({ ...schedule, timeout_answer: 'formal' }, 'ask_user').at(-1)).toEqual({
    kind: 'timeout',
    atSeconds: 300,
    answer: 'formal',
  });
});

test('no schedule: no step', () => {
  expect(waitSteps(undefined, 'approval')).toEqual([]);
});
