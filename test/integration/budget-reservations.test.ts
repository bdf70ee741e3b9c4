import {
  commitmentOf,
  releaseSpend,
  reserveSpend,
  settleSpend,
  type ReserveRequest,
} from '../../db/budget-reservations';
import { createToken } from '../../db/tokens';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/*
 * The reservation store before each model call (db/budget-reservations.ts, docs/budgets.md) against PostgreSQL: a
 * job's levels run one after another today, so the race of two calls for the last dollars is run here, at the store
 * the calls' activities use, with real concurrent transactions. Jobs are submitted through the API (their rows are
 * what a reservation reads); no worker runs them.
 */
let infra: Infrastructure;
let keel: KeelUnderTest;
let orgToken: string;
const ORG = 'org-reserve';

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel({ ...infra });
  orgToken = (await createToken(infra.db.pool, { userId: 'rita', orgId: ORG, isAdmin: true })).token;
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

async function submit(token = orgToken): Promise<string> {
  const response = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'Write r.md' }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { job_id: string }).job_id;
}

const call = (jobId: string, id: string, ceilingUsd: number | null): ReserveRequest => ({
  reservationId: `${jobId}/L4.executor/1#${id}`,
  jobId,
  levelId: `${jobId}/L4.executor/1`,
  provider: 'demo',
  model: 'demo',
  ceilingUsd,
  nowMs: Date.now(),
});

const costOf = async (jobId: string) =>
  Number(
    (await infra.db.pool.query<{ cost_usd: string }>('SELECT cost_usd FROM job_runs WHERE job_id = $1', [jobId]))
      .rows[0]!.cost_usd,
  );

test("two calls of one job racing for its ceiling's last dollars: exactly one is reserved", async () => {
  const jobId = await submit();
  const first = await reserveSpend(infra.db.pool, call(jobId, '1.1', 1), () => 0.5);
  expect(first).toMatchObject({ ok: true, estimateUsd: 0.5, settledUsd: 0, reservedUsd: 0.5 });
  expect(
    await settleSpend(infra.db.pool, { reservationId: first.ok ? first.reservationId : '', jobId, costUsd: 0.5 }),
  ).toEqual({ settledUsd: 0.5, reservedUsd: 0 });

  // $0.50 left; two calls estimated at $0.30 each ask at once.
  const raced = await Promise.all([
    reserveSpend(infra.db.pool, call(jobId, '2.1', 1), () => 0.3),
    reserveSpend(infra.db.pool, call(jobId, '3.1', 1), () => 0.3),
  ]);
  expect(raced.filter((r) => r.ok)).toHaveLength(1);
  const refused = raced.find((r) => !r.ok)!;
  expect(refused).toMatchObject({ ok: false, scope: 'job', limitUsd: 1, committedUsd: 0.8, estimateUsd: 0.3 });
  expect(await commitmentOf(infra.db.pool, jobId)).toEqual({ settledUsd: 0.5, reservedUsd: 0.3 });
});

test('a reservation is idempotent by id; settled once into the ledger; a released one counts for nothing', async () => {
  const jobId = await submit();
  const request = call(jobId, '1.1', 2);
  const once = await reserveSpend(infra.db.pool, request, () => 0.4);
  const again = await reserveSpend(infra.db.pool, request, () => 0.4);
  expect(again).toMatchObject({ ok: true, estimateUsd: 0.4, reservedUsd: 0.4 });
  expect(once.ok).toBe(true);

  // Settled at what the call cost (less than its estimate), twice: the ledger is charged once.
  const settlement = { reservationId: request.reservationId, jobId, costUsd: 0.25 };
  await settleSpend(infra.db.pool, settlement);
  expect(await settleSpend(infra.db.pool, settlement)).toEqual({ settledUsd: 0.25, reservedUsd: 0 });
  expect(await costOf(jobId)).toBe(0.25);
  await releaseSpend(infra.db.pool, request.reservationId);
  expect(await commitmentOf(infra.db.pool, jobId)).toEqual({ settledUsd: 0.25, reservedUsd: 0 });

  // A call that failed is released: its estimate no longer holds the ceiling.
  const failed = call(jobId, '2.1', 2);
  await reserveSpend(infra.db.pool, failed, () => 1.5);
  expect(await reserveSpend(infra.db.pool, call(jobId, '2.2', 2), () => 1)).toMatchObject({ ok: false, scope: 'job' });
  await releaseSpend(infra.db.pool, failed.reservationId);
  expect(await reserveSpend(infra.db.pool, call(jobId, '2.3', 2), () => 1)).toMatchObject({ ok: true });
});

test("two jobs of one org racing for its monthly budget's last dollars: exactly one is reserved", async () => {
  const put = (cents: number | null) =>
    fetch(`${keel.baseUrl}/v1/admin/budgets/orgs/${ORG}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${orgToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ budget_cents: cents }),
    });
  const [a, b] = [await submit(), await submit()];
  const { rows } = await infra.db.pool.query<{ usd: string }>(
    `SELECT COALESCE(SUM(cost_usd), 0) AS usd FROM job_runs WHERE org_id = $1`,
    [ORG],
  );
  const settled = Number(rows[0]!.usd);
  // Open reservations of this org's unfinished jobs from the tests above count too: clear them first.
  await infra.db.pool.query(
    `UPDATE budget_reservations SET state = 'released' WHERE state = 'reserved'
        AND job_id IN (SELECT job_id FROM job_runs WHERE org_id = $1)`,
    [ORG],
  );
  expect((await put(Math.ceil(settled * 100) + 100)).status).toBe(200);
  try {
    // $1.00 left this month; each job's call is estimated at $0.60; neither job has a ceiling.
    const raced = await Promise.all([
      reserveSpend(infra.db.pool, call(a, '1.1', null), () => 0.6),
      reserveSpend(infra.db.pool, call(b, '1.1', null), () => 0.6),
    ]);
    expect(raced.filter((r) => r.ok)).toHaveLength(1);
    expect(raced.find((r) => !r.ok)).toMatchObject({ scope: 'org', org_id: ORG, limitUsd: settled + 1 });

    // A finished job's open reservation is not counted: its calls will never be settled.
    const winner = raced[0].ok ? a : b;
    const loser = winner === a ? b : a;
    await infra.db.pool.query(`UPDATE job_runs SET status = 'failed' WHERE job_id = $1`, [winner]);
    expect(await reserveSpend(infra.db.pool, call(loser, '1.2', null), () => 0.6)).toMatchObject({ ok: true });
  } finally {
    await put(null);
  }
});
