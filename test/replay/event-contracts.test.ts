import { z } from 'zod';
import { EVENT_PAYLOADS, hasContract } from '../../events/payloads';
import { readRecordedJobs } from './histories';

/**
 * The event contracts accept what the code really emits: every event a recorded job appended is parsed against its
 * kind's contract, strictly, so a field the code writes but the catalog (and docs/events.md) does not list fails too.
 * An `appendEvent` activity shows the draft the workflow handed it; a local one (docs/job-history.md) records only its
 * result, the stored envelope, so for those the payload as stored is checked.
 */
type Payloads = { payloads?: Array<{ json?: unknown }> };
interface Recorded {
  activityTaskScheduledEventAttributes?: {
    activityType?: { name?: string };
    input?: { payloads?: Array<{ json?: { draft?: { kind: string; payload: unknown } } }> };
  };
  markerRecordedEventAttributes?: { markerName?: string; details?: { data?: Payloads; result?: Payloads } };
}

/** The envelope a local `appendEvent` returned, from its marker. */
function appendedLocally(event: Recorded): { kind: string; payload: unknown } | undefined {
  const marker = event.markerRecordedEventAttributes;
  if (marker?.markerName !== 'core_local_activity') return undefined;
  const data = marker.details?.data?.payloads?.[0]?.json as { activity_type?: string } | undefined;
  if (data?.activity_type !== 'appendEvent') return undefined;
  return marker.details?.result?.payloads?.[0]?.json as { kind: string; payload: unknown } | undefined;
}

const drafts = readRecordedJobs().flatMap(({ file, job }) =>
  job.workflows.flatMap((w) =>
    ((w.history as { events?: Recorded[] }).events ?? []).flatMap((event) => {
      const scheduled = event.activityTaskScheduledEventAttributes;
      const draft = scheduled?.input?.payloads?.[0]?.json?.draft;
      if (scheduled?.activityType?.name === 'appendEvent' && draft) return [{ file, ...draft }];
      const stored = appendedLocally(event);
      return stored ? [{ file, kind: stored.kind, payload: stored.payload }] : [];
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
