import { createToken } from '../../db/tokens';
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

const ocean = {
  id: 'ocean',
  name: 'Ocean',
  description: 'Blues and sand',
  keywords: ['surf', 'beach'],
  layout: 'two-column',
  tokens: {
    color: { background: '#f0f8ff', text: '#0b2545', primary: '#13315c', accent: '#eef4ed' },
    typography: { font_body: 'Inter, sans-serif', font_heading: 'Inter, sans-serif', size_base: '16px' },
    spacing: { unit: '8px', max_width: '1024px' },
  },
};

const storedDesigns = async () =>
  (await infra.db.pool.query<{ design_id: string }>('SELECT design_id FROM designs ORDER BY design_id')).rows.map(
    (r) => r.design_id,
  );

test('GET /v1/designs lists the shipped designs with their tokens and layout', async () => {
  const response = await call('/v1/designs');
  expect(response.status).toBe(200);
  const { designs } = (await response.json()) as { designs: Array<{ id: string; source: string; layout: string }> };
  expect(designs.map((d) => d.id)).toEqual(['clean', 'warm', 'midnight', 'gallery']);
  expect(designs.every((d) => d.source === 'shipped')).toBe(true);
  expect(designs[1]).toMatchObject({ id: 'warm', layout: 'single-column', tokens: { color: { primary: '#8b4513' } } });
});

test('POST /v1/designs adds a design to the caller org only', async () => {
  const created = await call('/v1/designs', { method: 'POST', body: ocean });
  expect(created.status).toBe(201);
  expect(await created.json()).toMatchObject({ id: 'ocean', source: 'org', layout: 'two-column' });
  const listed = (await (await call('/v1/designs')).json()) as { designs: Array<{ id: string }> };
  expect(listed.designs.map((d) => d.id)).toContain('ocean');

  const { token: other } = await createToken(infra.db.pool, { userId: 'eve', orgId: 'org-other', isAdmin: false });
  const theirs = (await (await call('/v1/designs', { token: other })).json()) as { designs: Array<{ id: string }> };
  expect(theirs.designs.map((d) => d.id)).not.toContain('ocean');
  // Ids are per org: another org may use the same one.
  expect((await call('/v1/designs', { method: 'POST', body: ocean, token: other })).status).toBe(201);
});

test('a taken id is 409: the org already has it, or Keel ships it', async () => {
  const again = await call('/v1/designs', { method: 'POST', body: ocean });
  expect(again.status).toBe(409);
  expect(((await again.json()) as { error: { code: string } }).error.code).toBe('design_exists');
  const shipped = await call('/v1/designs', { method: 'POST', body: { ...ocean, id: 'warm' } });
  expect(shipped.status).toBe(409);
});

test.each([
  [
    'a colour that is not hex',
    { ...ocean, id: 'bad-1', tokens: { ...ocean.tokens, color: { ...ocean.tokens.color, primary: 'blue' } } },
  ],
  [
    'a font stack that could inject CSS',
    {
      ...ocean,
      id: 'bad-2',
      tokens: { ...ocean.tokens, typography: { ...ocean.tokens.typography, font_body: 'x; } body { display:none' } },
    },
  ],
  ['an unknown layout', { ...ocean, id: 'bad-3', layout: 'zigzag' }],
  ['a missing spacing token', { ...ocean, id: 'bad-4', tokens: { ...ocean.tokens, spacing: { unit: '8px' } } }],
  ['an unknown field', { ...ocean, id: 'bad-5', shadow: '0 0 1px' }],
  ['an id that is not a slug', { ...ocean, id: 'Bad Id' }],
])('bad input is 400 with the error body and nothing is stored: %s', async (_what, body) => {
  const before = await storedDesigns();
  const response = await call('/v1/designs', { method: 'POST', body });
  expect(response.status).toBe(400);
  const error = ((await response.json()) as { error: { code: string; message: string } }).error;
  expect(error.code).toBe('invalid_request');
  expect(error.message.length).toBeGreaterThan(0);
  expect(await storedDesigns()).toEqual(before);
});
