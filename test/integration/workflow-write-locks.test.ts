import { eventually } from './eventually';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * A follow-up prompt to a running job waits, inside its transaction, until the job takes it (up to 20 s, then a 503).
 * No worker runs here, so the job never takes it: the prompt's request stays in that wait while the same workflow is
 * renamed and its agent graph edited. Those writes must not queue behind it (they did: the prompt's transaction held
 * the workflow's row lock, and a graph edit ran into its statement timeout, a 503 `database_unavailable`).
 */
let infra: Infrastructure;
let keel: KeelUnderTest;

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel({ ...infra });
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

interface Reply {
  status: number;
  body: {
    workflow: { workflow_id: string };
    version: number;
    title: string;
    error?: { code: string };
  };
}

async function call(method: string, path: string, body?: unknown): Promise<Reply> {
  const response = await fetch(`${keel.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${keel.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Reply['body'] };
}

/** True while some connection sits in a transaction whose last statement stored a follow-up prompt. */
async function promptAwaitsItsJob(): Promise<boolean> {
  const { rows } = await infra.db.pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM pg_stat_activity
      WHERE state = 'idle in transaction' AND query LIKE '%INSERT INTO prompt_threads%'`,
  );
  return Number(rows[0]!.n) > 0;
}

test('a follow-up prompt waiting for its job holds up no rename or graph edit of the workflow', async () => {
  const created = await call('POST', '/v1/workflows', { prompt: 'Write a.md with the letter a' });
  expect(created.status).toBe(201);
  const workflowId = created.body.workflow.workflow_id;

  let promptAnswered = false;
  const followUp = call('POST', `/v1/workflows/${workflowId}/prompts`, { prompt: 'And b.md with the letter b' }).then(
    (reply) => {
      promptAnswered = true;
      return reply;
    },
  );
  await eventually(promptAwaitsItsJob, { what: 'the follow-up prompt to wait for its job, its row written' });

  const renamed = await call('PATCH', `/v1/workflows/${workflowId}`, { title: 'Letters' });
  const edited = await call('POST', `/v1/workflows/${workflowId}/edge-prompt`, {
    from: 'L2.architect',
    to: 'L4.executor',
    prompt: 'Keep it short.',
  });
  // Both answered while the follow-up still waited for the job.
  expect(promptAnswered).toBe(false);
  expect([renamed.status, renamed.body.title]).toEqual([200, 'Letters']);
  expect([edited.status, edited.body.version]).toEqual([200, 1]);

  // The follow-up ends as the API bounds it: the job never took it, so nothing of it is stored.
  const answer = await followUp;
  expect([answer.status, answer.body.error?.code]).toEqual([503, 'job_unresponsive']);
  const { rows } = await infra.db.pool.query('SELECT 1 FROM prompt_threads WHERE workflow_id = $1', [workflowId]);
  expect(rows).toHaveLength(1);
}, 120_000);
