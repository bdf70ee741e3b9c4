import { expect, test } from '@jest/globals';
import type { JobQueue } from '../schemas';
import { queueLine } from './queue-line';

const queued: JobQueue = {
  org_id: 'org-a',
  state: 'queued',
  position: 3,
  reason: 'org_limit',
  enqueued_at: '2026-11-28T20:00:00.000Z',
  granted_at: null,
  released_at: null,
};

test("a queued job's page says its place in its org's queue and what it waits for", () => {
  expect(queueLine(queued)).toBe(
    "Queued — position 3 in org-a's queue, waiting for a slot under org-a's limit of running jobs",
  );
  expect(queueLine({ ...queued, position: 1, reason: 'total_limit' })).toBe(
    "Queued — position 1 in org-a's queue, waiting for a free slot (every slot of the deployment is taken)",
  );
  expect(queueLine({ ...queued, position: 2, reason: 'project_limit', project_slug: 'docs', project_limit: 1 })).toBe(
    "Queued — position 2 in org-a's queue, waiting for a slot under project docs's limit of 1 running job (org-a's other projects go on)",
  );
  expect(queueLine({ ...queued, position: null, reason: null })).toBe("Queued — in org-a's queue, waiting for a slot");
});

test('a job holding or done with its slot, or never scheduled, shows no queue line', () => {
  expect(queueLine({ ...queued, state: 'running', position: null, reason: null, granted_at: queued.enqueued_at })).toBe(
    null,
  );
  expect(queueLine({ ...queued, state: 'released', position: null, reason: null })).toBe(null);
  expect(queueLine(null)).toBe(null);
  expect(queueLine(undefined)).toBe(null);
});
