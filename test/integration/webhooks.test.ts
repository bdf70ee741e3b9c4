import { streamJobEvents } from '../../cli/event-stream';
import { createToken } from '../../db/tokens';
import type { EventEnvelope } from '../../events/envelope';
import { eventually } from './eventually';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { documentedVerifier, startReceiver } from './webhook-receiver';

/** A receiver that answers 500 to its first `failures` requests and 200 after. */
const failingFirst = (failures: number) => startReceiver((index) => (index < failures ? 500 : 200));

let infra: Infrastructure;
let keel: KeelUnderTest;

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel({
    ...infra,
    // 127.0.0.1 only: `localhost` stays refused, which shows the allowlist deciding. Retries quick, for the test.
    webhooks: {
      allowHosts: ['127.0.0.1'],
      attemptTimeoutMs: 10_000,
      initialIntervalMs: 100,
      maximumIntervalMs: 1_000,
      maximumAttempts: 5,
    },
  });
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

function submit(body: unknown, token = keel.token): Promise<Response> {
  return fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function eventsToEnd(jobId: string): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) events.push(event);
  return events;
}

interface DeliveryLog {
  deliveries: {
    delivery_id: string;
    sequence: number;
    event_kind: string;
    status: string;
    attempts: { attempt: number; status_code: number | null; ok: boolean; latency_ms: number; error: string | null }[];
  }[];
}

async function deliveries(jobId: string, token = keel.token): Promise<{ status: number; body: DeliveryLog }> {
  const response = await fetch(`${keel.baseUrl}/v1/jobs/${jobId}/webhook-deliveries`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: (await response.json()) as DeliveryLog };
}

test('a receiver that fails twice then succeeds: three attempts logged, one success, the same delivery id, signatures the documented snippet verifies', async () => {
  const receiver = await failingFirst(2);
  try {
    const response = await submit({ prompt: 'Write hello.md that greets the reader', webhook: { url: receiver.url } });
    expect(response.status).toBe(202);
    const accepted = (await response.json()) as {
      job_id: string;
      webhook: { url: string; events: string[]; secret: string };
    };
    expect(accepted.webhook).toMatchObject({ url: receiver.url, events: ['final', 'error'] });
    expect(accepted.webhook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const events = await eventsToEnd(accepted.job_id);
    const final = events.at(-1)!;
    expect(final.kind).toBe('final');

    const log = await eventually(
      async () => {
        const { body } = await deliveries(accepted.job_id);
        return body.deliveries[0]?.status === 'delivered' ? body : undefined;
      },
      { what: 'the final event delivered' },
    );
    // final only: no error event, and nothing else is subscribed.
    expect(log.deliveries).toHaveLength(1);
    const [delivery] = log.deliveries;
    expect(delivery).toMatchObject({
      delivery_id: `webhook-${accepted.job_id}-${final.sequence}`,
      sequence: final.sequence,
      event_kind: 'final',
    });
    expect(delivery!.attempts.map((a) => [a.attempt, a.status_code, a.ok])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 200, true],
    ]);
    expect(delivery!.attempts.filter((a) => a.ok)).toHaveLength(1);
    expect(delivery!.attempts.every((a) => a.latency_ms >= 0)).toBe(true);

    expect(receiver.received).toHaveLength(3);
    const verify = documentedVerifier();
    for (const request of receiver.received) {
      expect(request.headers['keel-delivery-id']).toBe(delivery!.delivery_id);
      expect(request.headers['content-type']).toBe('application/json');
      expect(JSON.parse(request.body)).toEqual(final);
      const signature = String(request.headers['keel-signature']);
      expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verify(request.body, signature, [accepted.webhook.secret])).toBe(true);
      // The old-and-new list a receiver keeps while a secret changes over.
      expect(verify(request.body, signature, ['whsec_old', accepted.webhook.secret])).toBe(true);
      expect(verify(request.body, signature, ['whsec_someone-else'])).toBe(false);
      expect(verify(request.body.replace('"final"', '"error"'), signature, [accepted.webhook.secret])).toBe(false);
      // A replayed capture: its signed timestamp is too old for the receiver's tolerance.
      expect(verify(request.body, signature, [accepted.webhook.secret], -1)).toBe(false);
    }
  } finally {
    await receiver.close();
  }
});

test('endpoints on loopback or private ranges are refused unless WEBHOOK_ALLOW_HOSTS names their host', async () => {
  const receiver = await failingFirst(0);
  try {
    const refused = [
      'https://10.1.2.3/hook',
      'https://192.168.1.20/hook',
      'https://172.16.0.5/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[fd00::1]/hook',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      // A name that resolves to loopback: 127.0.0.1 is allowed, `localhost` is not.
      `https://localhost:${receiver.port}/hook`,
      // Plain http to a host not allowed.
      'http://203.0.113.7/hook',
    ];
    for (const url of refused) {
      const response = await submit({ prompt: 'Write hello.md', webhook: { url } });
      expect({ url, status: response.status }).toEqual({ url, status: 400 });
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('webhook_url_refused');
    }
    // The allowed host: accepted, and delivered to.
    const accepted = await submit({ prompt: 'Write hello.md that greets the reader', webhook: { url: receiver.url } });
    expect(accepted.status).toBe(202);
    const { job_id: jobId } = (await accepted.json()) as { job_id: string };
    await eventsToEnd(jobId);
    await eventually(async () => (await deliveries(jobId)).body.deliveries[0]?.status === 'delivered', {
      what: 'the delivery to the allowed loopback receiver',
    });
  } finally {
    await receiver.close();
  }
});

test('bad webhook input is a 400 with the error envelope', async () => {
  const bad: unknown[] = [
    { url: 'not a url' },
    { url: 'ftp://example.com/hook' },
    { url: 'https://example.com/hook', events: ['done'] },
    { url: 'https://example.com/hook', events: [] },
    { url: 'https://example.com/hook', events: ['final', 'final'] },
    { url: 'https://example.com/hook', secret: 'mine' },
    { events: ['final'] },
    'https://example.com/hook',
  ];
  for (const webhook of bad) {
    const response = await submit({ prompt: 'Write hello.md', webhook });
    expect({ webhook, status: response.status }).toEqual({ webhook, status: 400 });
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.message).toMatch(/webhook/);
  }
});

test("the delivery log is scoped like the job: another org's job is 404, a redelivery is a new delivery of the same event", async () => {
  const receiver = await failingFirst(0);
  try {
    const response = await submit({
      prompt: 'Write hello.md that greets the reader',
      webhook: { url: receiver.url, events: ['final'] },
    });
    const { job_id: jobId } = (await response.json()) as { job_id: string };
    await eventsToEnd(jobId);
    const log = await eventually(
      async () => {
        const { body } = await deliveries(jobId);
        return body.deliveries[0]?.status === 'delivered' ? body : undefined;
      },
      { what: 'the final event delivered' },
    );

    const { token: otherOrg } = await createToken(infra.db.pool, {
      userId: 'someone-else',
      orgId: 'org-other',
      isAdmin: false,
    });
    const foreign = await deliveries(jobId, otherOrg);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ error: { code: 'not_found' } });
    expect((await deliveries('job-that-does-not-exist')).status).toBe(404);

    const original = log.deliveries[0]!;
    const redeliver = await fetch(
      `${keel.baseUrl}/v1/jobs/${jobId}/webhook-deliveries/${original.delivery_id}/redeliver`,
      { method: 'POST', headers: { authorization: `Bearer ${keel.token}` } },
    );
    expect(redeliver.status).toBe(202);
    const { delivery_id: again } = (await redeliver.json()) as { delivery_id: string };
    expect(again).toBe(`${original.delivery_id}-r1`);
    const after = await eventually(
      async () => {
        const { body } = await deliveries(jobId);
        return body.deliveries.find((d) => d.delivery_id === again)?.status === 'delivered' ? body : undefined;
      },
      { what: 'the redelivery delivered' },
    );
    expect(after.deliveries.map((d) => [d.delivery_id, d.sequence])).toEqual([
      [original.delivery_id, original.sequence],
      [again, original.sequence],
    ]);
    expect(receiver.received.map((r) => r.headers['keel-delivery-id'])).toEqual([original.delivery_id, again]);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);

    const foreignRedeliver = await fetch(
      `${keel.baseUrl}/v1/jobs/${jobId}/webhook-deliveries/${original.delivery_id}/redeliver`,
      { method: 'POST', headers: { authorization: `Bearer ${otherOrg}` } },
    );
    expect(foreignRedeliver.status).toBe(404);
  } finally {
    await receiver.close();
  }
});
