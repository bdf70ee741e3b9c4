import { z } from 'zod';
import { EVENT_PAYLOADS, hasContract } from '../../events/payloads';
import { readRecordedJobs } from './histories';

/**
 * The event contracts accept what the code really emits: every `appendEvent` a recorded job scheduled (the draft the
 * workflow handed the activity) is parsed against its kind's contract, strictly, so a field the code writes but the
 * catalog (and docs/events.md) does not list fails too.
 */
interface Scheduled {
  activityTaskScheduledEventAttributes?: {
    activityType?: { name?: string };
    input?: { payloads?: Array<{ json?: { draft?: { kind: string; payload: unknown } } }> };
  };
}

const drafts = readRecordedJobs().flatMap(({ file, job }) =>
  job.workflows.flatMap((w) =>
    ((w.history as { events?: Scheduled[] }).events ?? []).flatMap((event) => {
      const scheduled = event.activityTaskScheduledEventAttributes;
      const draft = scheduled?.input?.payloads?.[0]?.json?.draft;
      return scheduled?.activityType?.name === 'appendEvent' && draft ? [{ file, ...draft }] : [];
    }),
  ),
);

test('the recorded jobs emit the kinds of every path they show', () => {
  const kinds = new Set(drafts.map((d) => d.kind));
  for (const kind of ['scenario_chained', 'gate_decision', 'ask_user', 'approval_requested', 'prompt_appended'])
    expect(kinds).toContain(kind);
  expect(kinds).toContain('error');
  expect(kinds).toContain('final');
  // The product build's own kinds, as product.json.gz shows them.
  for (const kind of ['template_selected', 'design_applied', 'build_verify_failed', 'human_task_assigned', 'ui_action'])
    expect(kinds).toContain(kind);
});

test('every event the recorded jobs emitted has a contract that accepts it, field for field', () => {
  const refused = drafts.flatMap(({ file, kind, payload }) => {
    if (!hasContract(kind)) return [`${file}: ${kind} has no contract`];
    const parsed = z.strictObject(EVENT_PAYLOADS[kind].shape).safeParse(payload);
    return parsed.success ? [] : [`${file}: ${kind}: ${z.prettifyError(parsed.error)}`];
  });
  expect(refused).toEqual([]);
  expect(drafts.length).toBeGreaterThan(100);
});
