import { createQueueStore } from '../queue/create-queue-store';
import { loadCatalog, loadTeamControls } from '../routing/catalog/load';
import { shippedModelFiles } from '../routing/config';
import { buildRouter } from '../routing/open-models';
import { modelActivities } from './models';

test('a routing note is logged once per process, not once per level of every job', async () => {
  const files = shippedModelFiles();
  const queue = await createQueueStore({ instanceId: 'models-test' });
  // No provider key: every level falls back to the offline demo model, with a note saying so.
  const router = await buildRouter(
    await loadCatalog(files.catalog),
    await loadTeamControls(files.controls),
    {},
    queue,
    () => {},
  );
  const lines: string[] = [];
  const activities = modelActivities({ models: router, log: (line) => lines.push(line) });

  for (let job = 0; job < 3; job += 1) {
    for (const role of ['L1.team_lead', 'L4.executor']) {
      const decision = await activities.routeLevel({ role });
      expect(decision.offline).toBe(true);
    }
  }
  expect(lines.length).toBeGreaterThan(0);
  expect(new Set(lines).size).toBe(lines.length);
  expect(lines.some((line) => line.startsWith('L4.executor:') && line.includes('offline demo model'))).toBe(true);
  await queue.close();
});
