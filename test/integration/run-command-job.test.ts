import { streamJobEvents } from '../../cli/event-stream';
import type { EventEnvelope } from '../../events/envelope';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/*
 * The `build-and-test` scenario end to end (docs/toolbelt.md): its executor may run commands, and the offline demo
 * model runs the tests in the build sandbox before it writes and again after, through the real API, Temporal dev
 * server, worker and sandbox. Each run is a tool_call / tool_result pair on the job's stream and a row of its own.
 */
let infra: Infrastructure;
let keel: KeelUnderTest;

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel(infra);
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

test('the executor runs the tests, writes the file, runs the tests again, and says how they ended', async () => {
  const response = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'Write hello.md that greets the reader', scenario: 'build-and-test' }),
  });
  expect(response.status).toBe(202);
  const { job_id: jobId } = (await response.json()) as { job_id: string };
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) events.push(event);

  expect(events.at(-1)?.kind).toBe('final');
  const executor = events.filter((e) => e.agent_role === 'L4.executor');
  expect(executor.filter((e) => e.kind === 'tool_call').map((e) => e.payload.name)).toEqual([
    'run_command',
    'write_file',
    'run_command',
  ]);
  const results = executor.filter((e) => e.kind === 'tool_result').map((e) => String(e.payload.preview));
  expect(results[0]).toMatch(/^\$ node --test\s+exit code 0 \(/);
  expect(results[2]).toMatch(/^\$ node --test\s+exit code 0 \(/);
  const finished = executor.find((e) => e.kind === 'level_finished');
  expect(String(finished?.payload.output_preview)).toContain('Wrote hello.md. node --test: exit code 0');

  // Two runs, each recorded once with its end, under the level and the call's place in it.
  const { rows } = await infra.db.pool.query<{ run_key: string; exit_code: number }>(
    'SELECT run_key, exit_code FROM command_runs WHERE job_id = $1 ORDER BY started_at',
    [jobId],
  );
  expect(rows).toEqual([
    { run_key: `${jobId}/L4.executor/1#1.1`, exit_code: 0 },
    { run_key: `${jobId}/L4.executor/1#3.1`, exit_code: 0 },
  ]);
});
