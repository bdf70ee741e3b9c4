import { errorOf, startIdentity, type IdentityUnderTest } from './identity-harness';

/** GET /people: names for the ids the console shows on answers, decisions and tasks. */

let identity: IdentityUnderTest;

beforeAll(async () => {
  identity = await startIdentity();
});

afterAll(async () => {
  await identity.close();
});

test('any signed-in user reads the name and email of users by id; unknown ids are left out', async () => {
  const ada = await identity.createUser({ email: 'ada@example.test' });
  const bob = await identity.createUser({ email: 'bob@example.test', role: 'admin' });
  const cookie = await identity.signIn('ada@example.test');

  const res = await identity.app.inject({
    method: 'GET',
    url: `/people?id=${bob.id}&id=${ada.id}&id=dev&id=${bob.id}`,
    headers: { cookie },
  });
  expect(res.statusCode).toBe(200);
  const people = res.json<{ people: Array<{ id: string; email: string; name: string | null }> }>().people;
  expect(people.map((p) => p.email).sort()).toEqual(['ada@example.test', 'bob@example.test']);
  expect(Object.keys(people[0]!).sort()).toEqual(['email', 'id', 'name']);

  const one = await identity.app.inject({ method: 'GET', url: `/people?id=${ada.id}`, headers: { cookie } });
  expect(one.json<{ people: unknown[] }>().people).toEqual([{ id: ada.id, email: 'ada@example.test', name: null }]);
});

test('no session is a 401; no id, too many ids or another parameter is a 400', async () => {
  const anonymous = await identity.app.inject({ method: 'GET', url: '/people?id=x' });
  expect(anonymous.statusCode).toBe(401);
  await identity.createUser({ email: 'carol@example.test' });
  const cookie = await identity.signIn('carol@example.test');
  const many = Array.from({ length: 51 }, (_, i) => `id=u${i}`).join('&');
  for (const query of ['', `?${many}`, '?id=a&role=admin']) {
    const res = await identity.app.inject({ method: 'GET', url: `/people${query}`, headers: { cookie } });
    expect({ query, status: res.statusCode, code: errorOf(res).code }).toEqual({
      query,
      status: 400,
      code: 'invalid_request',
    });
  }
});
