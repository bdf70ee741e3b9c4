import { streamJobEvents } from '../../cli/event-stream';
import { createToken } from '../../db/tokens';
import type { EventEnvelope } from '../../events/envelope';
import { uniqueSuffix } from './env';
import { eventually } from './eventually';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { documentedVerifier, startReceiver, type Received } from './webhook-receiver';

/**
 * Project-level webhook subscriptions and secret rotation (docs/webhooks.md) on the real stack: an admin subscribes a
 * project's endpoint once, every job of the project delivers to it through the same workflow, log and signature as a
 * submission's own webhook, and a rotated secret keeps signing (a second `v1=`) until its overlap ends.
 */

let infra: Infrastructure;
let keel: KeelUnderTest;
const suffix = uniqueSuffix();
const org = 'org-test';

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel({
    ...infra,
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

/** The fields of the API's answers this file reads. */
interface Answer {
  error?: { code: string };
  subscriptions?: Subscription[];
  deliveries?: Delivery[];
  subscription_id?: string;
  secret?: string;
  previous_secret_expires_at?: string | null;
  job_id?: string;
  webhook?: { secret: string };
  delivery_id?: string;
}

async function call(
  path: string,
  options: { method?: string; json?: unknown; token?: string } = {},
): Promise<{ status: number; body: Answer }> {
  const headers: Record<string, string> = { authorization: `Bearer ${options.token ?? keel.token}` };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${keel.baseUrl}${path}`, {
    method: options.method ?? (options.json === undefined ? 'GET' : 'POST'),
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Answer };
}

async function newProject(name: string): Promise<string> {
  const slug = `${name}-${suffix}`.toLowerCase().replace(/[^a-z0-9-]/g, '-');
  expect((await call('/v1/projects', { json: { name, slug } })).status).toBe(201);
  return slug;
}

const subscriptions = (slug: string) => `/v1/admin/webhook-subscriptions/orgs/${org}/projects/${slug}`;

interface Subscription {
  subscription_id: string;
  url: string;
  events: string[];
  secret: string;
  previous_secret_expires_at: string | null;
}

async function subscribe(slug: string, body: unknown): Promise<Subscription> {
  const created = await call(subscriptions(slug), { json: body });
  expect(created.status).toBe(201);
  return created.body as Subscription;
}

/** Submits a job (into `project`, when named), reads its stream to the end, and answers its id and final event. */
async function runJob(
  body: Record<string, unknown>,
): Promise<{ jobId: string; final: EventEnvelope; secret?: string }> {
  const response = await call('/v1/chat', { json: { prompt: 'Write hello.md that greets the reader', ...body } });
  expect(response.status).toBe(202);
  const jobId = response.body.job_id!;
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) events.push(event);
  expect(events.at(-1)?.kind).toBe('final');
  return { jobId, final: events.at(-1)!, secret: response.body.webhook?.secret };
}

interface Delivery {
  delivery_id: string;
  sequence: number;
  event_kind: string;
  url: string;
  subscription_id: string | null;
  status: string;
  attempts: { ok: boolean }[];
}

/** The job's delivery log once `count` deliveries are all delivered. */
async function deliveredLog(jobId: string, count: number): Promise<Delivery[]> {
  return eventually(
    async () => {
      const { body } = await call(`/v1/jobs/${jobId}/webhook-deliveries`);
      const deliveries = body.deliveries!;
      return deliveries.length === count && deliveries.every((d) => d.status === 'delivered') ? deliveries : undefined;
    },
    { what: `${count} deliveries of ${jobId} delivered` },
  );
}

const forJob = (received: Received[], jobId: string) =>
  received.filter((r) => (JSON.parse(r.body) as EventEnvelope).job_id === jobId);

test('an admin subscribes a project once: every job of the project delivers to it, beside its own webhook, each signed with its own secret', async () => {
  const project = await newProject('Hooked');
  const other = await newProject('Unhooked');
  const projectReceiver = await startReceiver();
  const jobReceiver = await startReceiver();
  try {
    const sub = await subscribe(project, { url: projectReceiver.url });
    expect(sub).toMatchObject({
      url: projectReceiver.url,
      events: ['final', 'error'],
      previous_secret_expires_at: null,
    });
    expect(sub.subscription_id).toMatch(/^whsub_[0-9a-f]{16}$/);
    expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    // Listed without its secret: it was shown once.
    const listed = await call(subscriptions(project));
    expect(listed.status).toBe(200);
    expect(listed.body.subscriptions).toHaveLength(1);
    expect(listed.body.subscriptions![0]).toMatchObject({
      subscription_id: sub.subscription_id,
      project_slug: project,
    });
    expect(JSON.stringify(listed.body)).not.toContain(sub.secret);
    expect(JSON.stringify((await call('/v1/admin/webhook-subscriptions')).body)).not.toContain(sub.secret);

    // A job of the project with its own webhook too: two deliveries of its final event, one per endpoint.
    const both = await runJob({ project_slug: project, webhook: { url: jobReceiver.url } });
    const log = await deliveredLog(both.jobId, 2);
    expect(log.map((d) => [d.delivery_id, d.subscription_id, d.url])).toEqual([
      [`webhook-${both.jobId}-${both.final.sequence}`, null, jobReceiver.url],
      [`webhook-${both.jobId}-${both.final.sequence}-${sub.subscription_id}`, sub.subscription_id, projectReceiver.url],
    ]);
    const verify = documentedVerifier();
    const [toProject] = forJob(projectReceiver.received, both.jobId);
    const [toJob] = forJob(jobReceiver.received, both.jobId);
    expect(toProject!.headers['keel-delivery-id']).toBe(log[1]!.delivery_id);
    expect(JSON.parse(toProject!.body)).toEqual(both.final);
    expect(toProject!.body).toBe(toJob!.body);
    expect(verify(toProject!.body, String(toProject!.headers['keel-signature']), [sub.secret])).toBe(true);
    expect(verify(toProject!.body, String(toProject!.headers['keel-signature']), [both.secret!])).toBe(false);
    expect(verify(toJob!.body, String(toJob!.headers['keel-signature']), [both.secret!])).toBe(true);

    // A job of the project without a webhook of its own still delivers to the project's endpoint.
    const plain = await runJob({ project_slug: project });
    expect((await deliveredLog(plain.jobId, 1))[0]).toMatchObject({ subscription_id: sub.subscription_id });

    // Redelivery goes to the same subscription, as a new delivery.
    const redeliver = await call(
      `/v1/jobs/${plain.jobId}/webhook-deliveries/webhook-${plain.jobId}-${plain.final.sequence}-${sub.subscription_id}/redeliver`,
      { method: 'POST' },
    );
    expect(redeliver.status).toBe(202);
    expect(redeliver.body.delivery_id).toBe(`webhook-${plain.jobId}-${plain.final.sequence}-${sub.subscription_id}-r1`);
    expect((await deliveredLog(plain.jobId, 2))[1]).toMatchObject({ subscription_id: sub.subscription_id });
    await eventually(() => forJob(projectReceiver.received, plain.jobId).length === 2, { what: 'the redelivery' });

    // Another project's job delivers nothing.
    const elsewhere = await runJob({ project_slug: other });
    expect((await call(`/v1/jobs/${elsewhere.jobId}/webhook-deliveries`)).body.deliveries).toEqual([]);

    // Deleted: the project's next job delivers nothing; the earlier deliveries stay in their jobs' logs.
    expect((await call(`${subscriptions(project)}/${sub.subscription_id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(`${subscriptions(project)}/${sub.subscription_id}`, { method: 'DELETE' })).status).toBe(404);
    const after = await runJob({ project_slug: project });
    expect((await call(`/v1/jobs/${after.jobId}/webhook-deliveries`)).body.deliveries).toEqual([]);
    expect((await call(`/v1/jobs/${plain.jobId}/webhook-deliveries`)).body.deliveries).toHaveLength(2);
    expect(forJob(projectReceiver.received, after.jobId)).toEqual([]);
  } finally {
    await projectReceiver.close();
    await jobReceiver.close();
  }
});

test('subscriptions are for admins, to public https endpoints of existing projects', async () => {
  const project = await newProject('Guarded');
  const { token: member } = await createToken(infra.db.pool, { userId: 'member', orgId: org, isAdmin: false });
  const refused = await call(subscriptions(project), { json: { url: 'https://example.com/hook' }, token: member });
  expect(refused.status).toBe(403);
  expect(refused.body.error?.code).toBe('admin_only');
  expect((await call(subscriptions(project), { token: member })).status).toBe(403);

  for (const url of ['https://10.0.0.8/hook', 'https://[::1]/hook', 'http://203.0.113.7/hook']) {
    const response = await call(subscriptions(project), { json: { url } });
    expect({ url, status: response.status, code: response.body.error?.code }).toEqual({
      url,
      status: 400,
      code: 'webhook_url_refused',
    });
  }
  for (const body of [{ url: 'not a url' }, { url: 'https://example.com/h', events: ['done'] }, { secret: 'x' }]) {
    const response = await call(subscriptions(project), { json: body });
    expect({ body, status: response.status, code: response.body.error?.code }).toEqual({
      body,
      status: 400,
      code: 'invalid_request',
    });
  }
  expect((await call(subscriptions(`missing-${suffix}`), { json: { url: 'http://127.0.0.1:9/hook' } })).status).toBe(
    404,
  );
  const rotateMissing = await call(`${subscriptions(project)}/whsub_0000000000000000/rotate-secret`, { json: {} });
  expect(rotateMissing.status).toBe(404);
  const badOverlap = await call(`${subscriptions(project)}/whsub_0000000000000000/rotate-secret`, {
    json: { overlap_seconds: -1 },
  });
  expect(badOverlap.status).toBe(400);
});

test('a rotated secret: during the overlap a receiver holding only the old secret and one holding only the new both verify; after it, only the new', async () => {
  const project = await newProject('Rotated');
  const receiver = await startReceiver();
  const verify = documentedVerifier();
  const signatureOf = (jobId: string) => {
    const [request] = forJob(receiver.received, jobId);
    return { body: request!.body, header: String(request!.headers['keel-signature']) };
  };
  try {
    const sub = await subscribe(project, { url: receiver.url });
    const oldSecret = sub.secret;
    const rotated = await call(`${subscriptions(project)}/${sub.subscription_id}/rotate-secret`, { json: {} });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.secret!;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    // The default overlap: a day.
    const overlapEnds = Date.parse(rotated.body.previous_secret_expires_at!);
    expect(overlapEnds - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect(JSON.stringify((await call(subscriptions(project))).body)).not.toContain(newSecret);

    const during = await runJob({ project_slug: project });
    await deliveredLog(during.jobId, 1);
    const signed = signatureOf(during.jobId);
    expect(signed.header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verify(signed.body, signed.header, [oldSecret])).toBe(true);
    expect(verify(signed.body, signed.header, [newSecret])).toBe(true);
    expect(verify(signed.body, signed.header, ['whsec_someone-else'])).toBe(false);

    // An admin ends the overlap early, once every receiver has the new secret.
    const expired = await call(`${subscriptions(project)}/${sub.subscription_id}/expire-previous-secret`, {
      method: 'POST',
    });
    expect(expired.status).toBe(200);
    expect(expired.body.previous_secret_expires_at).toBeNull();
    const afterExpiry = await runJob({ project_slug: project });
    await deliveredLog(afterExpiry.jobId, 1);
    const single = signatureOf(afterExpiry.jobId);
    expect(single.header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verify(single.body, single.header, [oldSecret])).toBe(false);
    expect(verify(single.body, single.header, [newSecret])).toBe(true);

    // An overlap that runs out by itself: a one-second overlap, over before the next job's delivery.
    const again = await call(`${subscriptions(project)}/${sub.subscription_id}/rotate-secret`, {
      json: { overlap_seconds: 1 },
    });
    const newest = again.body.secret!;
    const ends = Date.parse(again.body.previous_secret_expires_at!);
    await eventually(() => Date.now() > ends + 1000, { what: 'the one-second overlap to end' });
    expect((await call(subscriptions(project))).body.subscriptions![0]!.previous_secret_expires_at).toBeNull();
    const after = await runJob({ project_slug: project });
    await deliveredLog(after.jobId, 1);
    const last = signatureOf(after.jobId);
    expect(last.header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verify(last.body, last.header, [newSecret])).toBe(false);
    expect(verify(last.body, last.header, [newest])).toBe(true);
  } finally {
    await receiver.close();
  }
});
