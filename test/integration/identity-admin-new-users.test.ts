import { startIdentity, type IdentityUnderTest, errorOf } from './identity-harness';

/** POST /admin/users: an admin creates (with a password) or invites (without) a user, who waits for approval. */
let identity: IdentityUnderTest;
let adminCookie: string;
let adminId: string;

beforeAll(async () => {
  identity = await startIdentity({ DEFAULT_BUDGET_USD: '12.5' });
  adminId = (await identity.createUser({ email: 'boss@example.test', role: 'admin' })).id;
  adminCookie = await identity.signIn('boss@example.test');
});

afterAll(async () => {
  await identity.close();
});

const post = (payload: unknown, cookie = adminCookie) =>
  identity.app.inject({ method: 'POST', url: '/admin/users', headers: { cookie }, payload: payload as object });

async function auditOf(targetId: string) {
  const { rows } = await identity.pool.query<{ actor_id: string; action: string }>(
    `SELECT actor_id, action FROM ${identity.tables.audit} WHERE target_id = $1 ORDER BY id`,
    [targetId],
  );
  return rows;
}

test('without a session it is 401, for a member 403 admin_required, and nothing is created', async () => {
  const anonymous = await identity.app.inject({
    method: 'POST',
    url: '/admin/users',
    payload: { email: 'sneaky@example.test' },
  });
  expect(anonymous.statusCode).toBe(401);
  await identity.createUser({ email: 'member@example.test' });
  const member = await identity.signIn('member@example.test');
  const refused = await post({ email: 'sneaky@example.test' }, member);
  expect(refused.statusCode).toBe(403);
  expect(errorOf(refused).code).toBe('admin_required');
  const { rows } = await identity.pool.query(`SELECT 1 FROM ${identity.tables.users} WHERE email = $1`, [
    'sneaky@example.test',
  ]);
  expect(rows).toHaveLength(0);
});

test.each([
  ['no email', {}],
  ['an email that is not one', { email: 'not-an-email' }],
  ['a short password', { email: 'short@example.test', password: 'short' }],
  ['an unknown role', { email: 'role@example.test', role: 'owner' }],
  ['an unknown field', { email: 'extra@example.test', approved: true }],
])('%s is 400 with a code and a message naming the field', async (_what, payload) => {
  const res = await post(payload);
  expect(res.statusCode).toBe(400);
  expect(errorOf(res).code).toEqual(expect.any(String));
  expect(errorOf(res).message).toEqual(expect.any(String));
});

test('a created user (with a password) starts pending, cannot sign in until approved, and is audited', async () => {
  const created = await post({ email: 'Created@Example.test', password: 'created password 1', name: 'Cre Ated' });
  expect(created.statusCode).toBe(201);
  const user = created.json<{ user: { id: string; email: string; status: string; banReason: string } }>().user;
  expect(user).toMatchObject({ email: 'created@example.test', status: 'pending', banReason: 'pending_approval' });
  expect(await auditOf(user.id)).toEqual([{ actor_id: adminId, action: 'create_user' }]);

  const signIn = () =>
    identity.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: 'created@example.test', password: 'created password 1' },
      remoteAddress: '10.5.0.1',
    });
  expect((await signIn()).statusCode).toBe(403);
  const approved = await identity.app.inject({
    method: 'PATCH',
    url: `/admin/users/${user.id}`,
    headers: { cookie: adminCookie },
    payload: { disabled: false },
  });
  expect(approved.json<{ user: { budgetCents: number } }>().user.budgetCents).toBe(1250);
  expect((await signIn()).statusCode).toBe(200);
});

test('an invited user (no password) starts pending with no password account; an email taken in any case is 409', async () => {
  const invited = await post({ email: 'guest@example.test', role: 'admin' });
  expect(invited.statusCode).toBe(201);
  const user = invited.json<{ user: { id: string; role: string; status: string } }>().user;
  // An invited admin is still pending: the role applies once an admin approves it.
  expect(user).toMatchObject({ role: 'admin', status: 'pending' });
  expect(await auditOf(user.id)).toEqual([{ actor_id: adminId, action: 'invite_user' }]);
  const { rows } = await identity.pool.query(`SELECT 1 FROM ${identity.tables.accounts} WHERE user_id = $1`, [user.id]);
  expect(rows).toHaveLength(0);

  const taken = await post({ email: 'GUEST@example.test', password: 'another password' });
  expect(taken.statusCode).toBe(409);
  expect(errorOf(taken).code).toBe('email_taken');
});
