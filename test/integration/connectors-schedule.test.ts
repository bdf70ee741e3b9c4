import { ScheduleOverlapPolicy } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { connectorsEnv } from '../../connectors/config';
import { connectorsConfig } from '../../connectors/settings';
import { readConnectorCursor } from '../../connectors/state-store';
import type { QueueStore } from '../../queue/queue-store';
import { loadCatalog, loadTeamControls } from '../../routing/catalog/load';
import { shippedModelFiles } from '../../routing/config';
import { buildRouter } from '../../routing/open-models';
import { connectorScheduleId, ensureConnectorSchedules, triggerConnectorRun } from '../../temporal/connector-schedules';
import { startKeelWorker, type RunningWorker } from '../../temporal/worker';
import type { ConnectorRunResult } from '../../connectors/definitions';
import { createGitHost, type GitHost } from './connectors-fixture';
import { uniqueSuffix } from './env';
import { createTestQueue, startTemporal, testWorkflowBundle } from './harness';
import { createKbFixture, type KbFixture } from './kb-fixture';

let temporal: TestWorkflowEnvironment;
let kb: KbFixture;
let queue: QueueStore;
let host: GitHost;
let worker: RunningWorker | undefined;
const taskQueue = `keel-connectors-${uniqueSuffix()}`;

beforeAll(async () => {
  temporal = await startTemporal();
  kb = await createKbFixture();
  queue = await createTestQueue();
  host = await createGitHost();
});

afterAll(async () => {
  await worker?.stop();
  await host.close();
  await queue.close();
  await kb.close();
  await temporal.teardown();
});

const describeSchedule = (name: 'notion' | 'slack' | 'github') =>
  temporal.client.schedule.getHandle(connectorScheduleId(name)).describe();

describe('connector schedules on Temporal', () => {
  it('creates one schedule per connector, paused unless enabled, with overlap skip and the configured cron', async () => {
    const config = connectorsEnv.parse({ CONNECTOR_GITHUB_ENABLED: 'true', CONNECTOR_SLACK_SCHEDULE: '*/15 * * * *' });
    const states = await ensureConnectorSchedules(temporal.client, { taskQueue, config });
    expect(states.map((s) => [s.connector, s.cron, s.paused])).toEqual([
      ['notion', '0 */2 * * *', true],
      ['slack', '*/15 * * * *', true],
      ['github', '0 */6 * * *', false],
    ]);
    const github = await describeSchedule('github');
    expect(github.state.paused).toBe(false);
    expect(github.policies.overlap).toBe(ScheduleOverlapPolicy.SKIP);
    expect(github.action).toMatchObject({ type: 'startWorkflow', workflowType: 'runConnector', taskQueue });
    expect((await describeSchedule('notion')).state.paused).toBe(true);
    const slack = await describeSchedule('slack');
    // The server stores a cron as calendar specs: minute every 15, every hour.
    expect(JSON.stringify(slack.spec)).toContain('"step":15');
  });

  it('updates the schedules at the next start: a disabled connector is paused', async () => {
    await ensureConnectorSchedules(temporal.client, { taskQueue, config: connectorsEnv.parse({}) });
    expect((await describeSchedule('github')).state.paused).toBe(true);
  });

  it('runs a triggered connector end to end on a worker, with its cursor stored and its files indexed', async () => {
    const sha = await host.commit('acme', 'docs', {
      'guide.md': '# Guide\n',
      'bin/tool.bin': Buffer.from([0xff, 0x00]),
    });
    const connectorEnv: NodeJS.ProcessEnv = {
      CONNECTOR_GITHUB_REPOS: JSON.stringify([{ owner: 'acme', repo: 'docs', sensitivity: 'internal' }]),
      GITHUB_GIT_BASE_URL: host.baseUrl,
    };
    const shipped = shippedModelFiles();
    const models = await buildRouter(
      await loadCatalog(shipped.catalog),
      await loadTeamControls(shipped.controls),
      {},
      queue,
      () => undefined,
    );
    worker = await startKeelWorker({
      connection: temporal.nativeConnection,
      namespace: temporal.namespace ?? 'default',
      taskQueue,
      deps: {
        pool: kb.db.pool,
        queue,
        models,
        workspaceRoot: kb.hubDir,
        kb: kb.hub,
        connectors: connectorsConfig.parse(connectorEnv),
      },
      workflowCode: await testWorkflowBundle(),
      shutdownGraceTime: '1 second',
    });
    // The schedule is paused (previous test): a manual run still starts from its definition.
    const { workflowId } = await triggerConnectorRun(temporal.client, 'github');
    expect(workflowId).toMatch(/^keel-connector-github/);
    const result = (await temporal.client.workflow.getHandle(workflowId).result()) as ConnectorRunResult;
    expect(result).toMatchObject({ connector: 'github', records: 1, written: 1, indexProblems: [] });
    expect(await readConnectorCursor(kb.db.pool, 'github')).toEqual({ 'acme/docs': sha });
    const { rows } = await kb.index.query<{ path: string }>('SELECT path FROM kb_documents');
    expect(rows.map((r) => r.path)).toEqual(['sources/github/acme/docs/guide.md.md']);
    // The run is one activity of the workflow (the one that heartbeats records and bytes).
    const history = await temporal.client.workflow.getHandle(workflowId).fetchHistory();
    const scheduled = history.events?.find((e) => e.activityTaskScheduledEventAttributes);
    expect(scheduled?.activityTaskScheduledEventAttributes?.activityType?.name).toBe('syncConnector');
  });
});
