import { createToken } from '../../db/tokens';
import { slugFor } from '../../db/projects';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

let infra: Infrastructure;
let keel: KeelUnderTest;

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel(infra);
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

const call = (path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
  fetch(`${keel.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${init.token ?? keel.token}`, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

test('a slug is derived from the name, URL-safe and never empty', () => {
  expect(slugFor('Café Déjà Vu! 2026')).toBe('cafe-deja-vu-2026');
  expect(slugFor('   ')).toBe('project');
  expect(slugFor('x'.repeat(100))).toHaveLength(48);
});

test('creating projects with one name gives collision-free slugs: -2, -3, …', async () => {
  const slugs: string[] = [];
  for (let i = 0; i < 3; i += 1) {
    const response = await call('/v1/projects', { method: 'POST', body: { name: 'Docs Site' } });
    expect(response.status).toBe(201);
    slugs.push(((await response.json()) as { slug: string }).slug);
  }
  expect(slugs).toEqual(['docs-site', 'docs-site-2', 'docs-site-3']);
});

test('concurrent creates with one name never share a slug', async () => {
  const responses = await Promise.all(
    Array.from({ length: 12 }, () => call('/v1/projects', { method: 'POST', body: { name: 'Race Project' } })),
  );
  const slugs = await Promise.all(responses.map(async (r) => ((await r.json()) as { slug: string }).slug));
  expect(responses.every((r) => r.status === 201)).toBe(true);
  expect(new Set(slugs).size).toBe(12);
  expect(slugs).toContain('race-project');
});

test('an explicit slug that is taken is 409; a malformed one is 400', async () => {
  expect((await call('/v1/projects', { method: 'POST', body: { name: 'A', slug: 'taken' } })).status).toBe(201);
  const again = await call('/v1/projects', { method: 'POST', body: { name: 'B', slug: 'taken' } });
  expect(again.status).toBe(409);
  expect(((await again.json()) as { error: { code: string } }).error.code).toBe('slug_taken');
  expect((await call('/v1/projects', { method: 'POST', body: { name: 'C', slug: 'Not A Slug' } })).status).toBe(400);
  expect((await call('/v1/projects', { method: 'POST', body: { name: '' } })).status).toBe(400);
});

test('projects are listed and read within the org; another org sees none of them', async () => {
  const { token: other } = await createToken(infra.db.pool, { userId: 'eve', orgId: 'org-other', isAdmin: false });
  expect((await call('/v1/projects/taken')).status).toBe(200);
  expect((await call('/v1/projects/taken', { token: other })).status).toBe(404);
  const listed = (await (await call('/v1/projects', { token: other })).json()) as { projects: unknown[] };
  expect(listed.projects).toEqual([]);
  const mine = (await (await call('/v1/projects')).json()) as { projects: Array<{ slug: string }> };
  expect(mine.projects.map((p) => p.slug)).toEqual(expect.arrayContaining(['docs-site', 'taken']));
  // Slugs are per org: submitting with another org's slug files the job under a project of the caller's own org,
  // never into the other org's project (and the answer does not reveal that the other org has one).
  const chat = await call('/v1/chat', { method: 'POST', token: other, body: { prompt: 'hi', project_slug: 'taken' } });
  expect(chat.status).toBe(202);
  const { workflow_id } = (await chat.json()) as { workflow_id: string };
  const { rows } = await infra.db.pool.query<{ org_id: string; project_slug: string }>(
    'SELECT org_id, project_slug FROM workflows WHERE workflow_id = $1',
    [workflow_id],
  );
  expect(rows[0]).toEqual({ org_id: 'org-other', project_slug: 'taken' });
  const theirs = await call('/v1/projects/taken', { token: other });
  expect(theirs.status).toBe(200);
  const ours = (await (await call('/v1/projects/taken')).json()) as { name: string };
  expect(ours.name).toBe('A');
});
