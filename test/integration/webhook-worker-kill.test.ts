import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { streamJobEvents } from '../../cli/event-stream';
import type { EventEnvelope } from '../../events/envelope';
import { startDemoModelServer, type DemoModelServer } from '../../routing/demo-model/server';
import { uniqueSuffix } from './env';
import { eventually } from './eventually';
import type { KeelProcess } from './fault-drill-stack';
import { alphaCatalog, startWorkerProcess } from './worker-process';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { documentedVerifier, startReceiver } from './webhook-receiver';

/**
 * A worker SIGKILLed while a webhook delivery is in flight (docs/webhooks.md, "Delivery guarantees"): the receiver has
 * the request, handles it and holds its answer, and the worker dies before it learns the outcome. Temporal times the
 * attempt out and retries it on a second worker, with the same `Keel-Delivery-Id`. A receiver that drops repeats by
 * that id, as the documented Express receiver does, handles each event exactly once. The first worker is a process of
 * its own (dist/stack/worker-main.js, as in production) so it can be killed; the second runs in this process.
 */
let infra: Infrastructure;
let demo: DemoModelServer;
let keel: KeelUnderTest;
let dir: string;
let worker: KeelProcess | undefined;

beforeAll(async () => {
  infra = await startInfrastructure();
  demo = await startDemoModelServer();
  const catalog = alphaCatalog(demo.baseUrl);
  const controls = { providers: { alpha: {} } };
  const webhooks = {
    allowHosts: ['127.0.0.1'],
    attemptTimeoutMs: 10_000,
    initialIntervalMs: 100,
    maximumIntervalMs: 1_000,
    maximumAttempts: 5,
  };
  keel = await startKeel({ ...infra, catalog, controls, providerEnv: { ALPHA_KEY: 'sk-alpha' }, webhooks });
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-hook-kill-'));
  worker = await startWorkerProcess({
    infra,
    keel,
    dir,
    catalog,
    controls,
    instanceId: `test-${uniqueSuffix()}`,
    env: {
      // The production delivery schedule (10 s per attempt, 10 s before the first retry), loopback allowed.
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    },
  });
}, 120_000);

afterAll(async () => {
  await worker?.kill();
  await keel?.close();
  await demo?.close();
  await infra?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

test('a worker SIGKILLed mid-delivery: the attempt is retried on another worker with the same delivery id, and a receiver that drops repeats handles each event once', async () => {
  // The documented receiver: verify, drop a delivery id already handled (answer 2xx), else handle. It holds its answer
  // to the first request until the worker that sent it is dead, so Keel never learns that attempt's outcome.
  const verify = documentedVerifier();
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const handled = new Map<string, EventEnvelope>();
  let secret = '';
  let held = false;
  const receiver = await startReceiver(async (_index, request) => {
    if (!verify(request.body, String(request.headers['keel-signature']), [secret])) return 400;
    const id = String(request.headers['keel-delivery-id']);
    if (handled.has(id)) return 200;
    handled.set(id, JSON.parse(request.body) as EventEnvelope);
    if (!held) {
      held = true;
      await released;
    }
    return 200;
  });
  try {
    const response = await fetch(`${keel.baseUrl}/v1/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        prompt: 'Write hello.md that greets the reader',
        webhook: { url: receiver.url, events: ['final', 'error'] },
      }),
    });
    expect(response.status).toBe(202);
    const accepted = (await response.json()) as { job_id: string; webhook: { secret: string } };
    secret = accepted.webhook.secret;
    const events: EventEnvelope[] = [];
    for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId: accepted.job_id })) {
      events.push(event);
    }
    const final = events.at(-1)!;
    expect(final.kind).toBe('final');

    // The worker process POSTed the final event; the receiver handled it and holds the answer. Kill the worker now.
    await eventually(() => receiver.received.length === 1, {
      what: 'the first delivery attempt at the receiver',
      timeoutMs: 120_000,
    });
    expect(worker!.alive()).toBe(true);
    await worker!.kill('SIGKILL');
    worker = undefined;
    release();
    await keel.startWorker();

    const delivery = await eventually(
      async () => {
        const answer = await fetch(`${keel.baseUrl}/v1/jobs/${accepted.job_id}/webhook-deliveries`, {
          headers: { authorization: `Bearer ${keel.token}` },
        });
        const log = (await answer.json()) as {
          deliveries: {
            delivery_id: string;
            sequence: number;
            status: string;
            attempts: { attempt: number; ok: boolean }[];
          }[];
        };
        return log.deliveries[0]?.status === 'delivered' ? log.deliveries : undefined;
      },
      { what: 'the delivery retried on the second worker', timeoutMs: 180_000 },
    );

    // One event subscribed and stored (final), one delivery of it, one attempt answered 2xx in the log.
    expect(delivery).toHaveLength(1);
    const deliveryId = `webhook-${accepted.job_id}-${final.sequence}`;
    expect(delivery[0]).toMatchObject({ delivery_id: deliveryId, sequence: final.sequence });
    expect(delivery[0]!.attempts.filter((a) => a.ok)).toHaveLength(1);
    // The lost attempt never logged itself (its worker died first); the retry did, under a later attempt number.
    expect(delivery[0]!.attempts.find((a) => a.ok)!.attempt).toBeGreaterThan(1);

    // The receiver saw the event twice, under the same delivery id, and handled it once.
    expect(receiver.received.length).toBeGreaterThanOrEqual(2);
    expect(new Set(receiver.received.map((r) => r.headers['keel-delivery-id']))).toEqual(new Set([deliveryId]));
    expect(receiver.received.every((r) => r.body === receiver.received[0]!.body)).toBe(true);
    expect([...handled.keys()]).toEqual([deliveryId]);
    expect(handled.get(deliveryId)).toEqual(final);
  } finally {
    release();
    await receiver.close();
  }
}, 300_000);
