import { createUserCommand } from '../../auth/cli-create-user';
import { recordJobCost, startIdentity, type IdentityUnderTest, errorOf, type Listed } from './identity-harness';
import { testPostgresDsn } from './env';

let identity: IdentityUnderTest;
let adminCookie: string;
let adminId: string;

beforeAll(async () => {
  identity = await startIdentity({ DEFAULT_BUDGET_USD: '12.5' });
  adminId = (await identity.createUser({ email: 'root@example.test', role: 'admin' })).id;
  adminCookie = await identity.signIn('root@example.test');
});

afterAll(async () => {
  await identity.close();
});

async function auditRows(targetId: string) {
  const { rows } = await identity.pool.query<{ actor_id: string; action: string; changes: Record<string, unknown> }>(
    `SELECT actor_id, action, changes FROM ${identity.tables.audit} WHERE target_id = $1 ORDER BY id`,
    [targetId],
  );
  return rows;
}

describe('the identity service: admin, audit and budgets', () => {
  test('admin routes need a session (401) and the admin role (403)', async () => {
    await identity.createUser({ email: 'plain@example.test' });
    const member = await identity.signIn('plain@example.test');
    expect((await identity.app.inject({ method: 'GET', url: '/admin/users' })).statusCode).toBe(401);
    const forbidden = await identity.app.inject({ method: 'GET', url: '/admin/users', headers: { cookie: member } });
    expect(forbidden.statusCode).toBe(403);
    expect(errorOf(forbidden).code).toBe('admin_required');
    const plugin = await identity.app.inject({
      method: 'GET',
      url: '/api/auth/admin/list-users',
      headers: { cookie: member },
    });
    expect(plugin.statusCode).toBe(403);
  });

  test('approving a pending user enables it with DEFAULT_BUDGET_USD and writes an audit row', async () => {
    const pending = await identity.createUser({ email: 'newbie@example.test', approved: false });
    const res = await identity.app.inject({
      method: 'PATCH',
      url: `/admin/users/${pending.id}`,
      headers: { cookie: adminCookie },
      payload: { disabled: false },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ user: Record<string, unknown> }>().user).toMatchObject({
      banned: false,
      banReason: null,
      budgetCents: 1250,
    });
    const audit = await auditRows(pending.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_id: adminId,
      action: 'update_user',
      changes: {
        requested: { disabled: false },
        before: { banned: true },
        after: { banned: false, budgetCents: 1250 },
      },
    });
    // Now the user can sign in.
    await identity.signIn('newbie@example.test');
  });

  test('disabling a user revokes its sessions at once for fresh checks; every update is audited', async () => {
    const target = await identity.createUser({ email: 'target@example.test' });
    const cookie = await identity.signIn('target@example.test');
    const res = await identity.app.inject({
      method: 'PATCH',
      url: `/admin/users/${target.id}`,
      headers: { cookie: adminCookie },
      payload: { disabled: true, budgetCents: 500 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ user: Record<string, unknown> }>().user).toMatchObject({
      banned: true,
      banReason: 'disabled_by_admin',
      budgetCents: 500,
    });
    const { rows } = await identity.pool.query(`SELECT 1 FROM ${identity.tables.sessions} WHERE user_id = $1`, [
      target.id,
    ]);
    expect(rows).toHaveLength(0);
    const fresh = await identity.app.inject({
      method: 'GET',
      url: '/internal/preflight?fresh=1',
      headers: { cookie },
    });
    expect(fresh.statusCode).toBe(401);
    // A no-op update is still an admin update: audited.
    await identity.app.inject({
      method: 'PATCH',
      url: `/admin/users/${target.id}`,
      headers: { cookie: adminCookie },
      payload: {},
    });
    expect(await auditRows(target.id)).toHaveLength(2);
  });

  test('an admin cannot disable or demote itself; nothing is written', async () => {
    for (const payload of [{ disabled: true }, { role: 'user' }, { role: 'user', budgetCents: 1 }]) {
      const res = await identity.app.inject({
        method: 'PATCH',
        url: `/admin/users/${adminId}`,
        headers: { cookie: adminCookie },
        payload,
      });
      expect(res.statusCode).toBe(403);
      expect(errorOf(res).code).toBe('self_change_blocked');
    }
    const viaPlugin = await identity.app.inject({
      method: 'POST',
      url: '/api/auth/admin/ban-user',
      headers: { cookie: adminCookie },
      payload: { userId: adminId },
    });
    expect(viaPlugin.statusCode).toBe(403);
    const demote = await identity.app.inject({
      method: 'POST',
      url: '/api/auth/admin/set-role',
      headers: { cookie: adminCookie },
      payload: { userId: adminId, role: 'user' },
    });
    expect(demote.statusCode).toBe(403);
    expect(await auditRows(adminId)).toHaveLength(0);
    const me = await identity.app.inject({ method: 'GET', url: '/admin/users', headers: { cookie: adminCookie } });
    expect(me.json<{ users: Listed[] }>().users.find((u) => u.id === adminId)).toMatchObject({
      role: 'admin',
      banned: false,
    });
  });

  test('PATCH bodies are checked: unknown fields, wrong types and unknown users are 4xx', async () => {
    const target = await identity.createUser({ email: 'typo@example.test' });
    for (const payload of [{ disabld: true }, { budgetCents: -1 }, { budgetCents: 1.5 }, { role: 'owner' }]) {
      const res = await identity.app.inject({
        method: 'PATCH',
        url: `/admin/users/${target.id}`,
        headers: { cookie: adminCookie },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).code).toBe('invalid_request');
    }
    expect(await auditRows(target.id)).toHaveLength(0);
    const missing = await identity.app.inject({
      method: 'PATCH',
      url: '/admin/users/usr_nobody',
      headers: { cookie: adminCookie },
      payload: { disabled: true },
    });
    expect(missing.statusCode).toBe(404);
  });

  test('the admin-plugin routes: list-users, set-role, ban-user, unban-user, each audited', async () => {
    const target = await identity.createUser({ email: 'plugin@example.test' });
    const post = (url: string, payload: object) =>
      identity.app.inject({ method: 'POST', url, headers: { cookie: adminCookie }, payload });
    expect(
      (await post('/api/auth/admin/set-role', { userId: target.id, role: 'admin' })).json<{
        user: Record<string, unknown>;
      }>().user.role,
    ).toBe('admin');
    const banned = await post('/api/auth/admin/ban-user', { userId: target.id, banReason: 'spam' });
    expect(banned.json<{ user: Record<string, unknown> }>().user).toMatchObject({ banned: true, banReason: 'spam' });
    expect(
      (await post('/api/auth/admin/unban-user', { userId: target.id })).json<{ user: Record<string, unknown> }>().user
        .banned,
    ).toBe(false);
    expect((await auditRows(target.id)).map((row) => row.action)).toEqual(['set_role', 'ban_user', 'unban_user']);
    const list = await identity.app.inject({
      method: 'GET',
      url: '/api/auth/admin/list-users',
      headers: { cookie: adminCookie },
    });
    expect(list.json<{ users: Listed[] }>().users.map((u) => u.email)).toContain('plugin@example.test');
  });

  test('admin create-user mints a credential user that starts pending, audited; a taken email is 409', async () => {
    const post = (payload: object) =>
      identity.app.inject({
        method: 'POST',
        url: '/api/auth/admin/create-user',
        headers: { cookie: adminCookie },
        payload,
      });
    const created = await post({ email: 'minted@example.test', password: 'minted password 1' });
    expect(created.statusCode).toBe(201);
    const user = created.json<{ user: { id: string; banned: boolean; banReason: string } }>().user;
    expect(user).toMatchObject({ banned: true, banReason: 'pending_approval' });
    expect((await auditRows(user.id)).map((row) => row.action)).toEqual(['create_user']);
    expect((await post({ email: 'minted@example.test', password: 'another password' })).statusCode).toBe(409);
    expect((await post({ email: 'short@example.test', password: 'short' })).statusCode).toBe(400);
    const signIn = await identity.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: 'minted@example.test', password: 'minted password 1' },
      remoteAddress: '10.4.0.1',
    });
    expect(signIn.statusCode).toBe(403);
  });

  test('GET /admin/users and GET /me/budget show month-to-date spend from the job ledger', async () => {
    const spender = await identity.createUser({ email: 'spender@example.test' });
    const cookie = await identity.signIn('spender@example.test');
    const now = new Date(identity.clock.ms);
    await recordJobCost(identity.pool, identity.ingestSchema, { userId: spender.id, costUsd: 1.234, createdAt: now });
    await recordJobCost(identity.pool, identity.ingestSchema, { userId: spender.id, costUsd: 2, createdAt: now });
    // Last month's job does not count.
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 20));
    await recordJobCost(identity.pool, identity.ingestSchema, {
      userId: spender.id,
      costUsd: 50,
      createdAt: lastMonth,
    });

    const budget = await identity.app.inject({ method: 'GET', url: '/me/budget', headers: { cookie } });
    expect(budget.statusCode).toBe(200);
    expect(budget.json()).toMatchObject({
      exempt: false,
      budgetCents: 1250,
      spentCents: 324,
      remainingCents: 926,
      overBudget: false,
    });
    const users = await identity.app.inject({ method: 'GET', url: '/admin/users', headers: { cookie: adminCookie } });
    expect(users.json<{ users: Listed[] }>().users.find((u) => u.id === spender.id)).toMatchObject({
      role: 'user',
      status: 'active',
      budgetCents: 1250,
      spentCents: 324,
      overBudget: false,
    });
    expect((await identity.app.inject({ method: 'GET', url: '/me/budget' })).statusCode).toBe(401);
  });

  test('keel auth create-user hashes with the sign-in routine; the user starts pending unless --approved', async () => {
    const env = {
      DATABASE_URL: testPostgresDsn,
      DATABASE_SCHEMA: identity.env.DATABASE_SCHEMA,
      DEFAULT_BUDGET_USD: '7',
    };
    const io = (password: string) => ({
      env,
      readStdin: async () => `${password}\n`,
      openDatabase: async () => ({ pool: identity.pool, close: async () => undefined }),
    });
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(
        await createUserCommand(['--email', 'seeded@example.test', '--password-stdin'], io('seeded password 1')),
      ).toBe(0);
      expect(
        await createUserCommand(
          ['--email', 'boss@example.test', '--password-stdin', '--role', 'admin', '--approved'],
          io('boss password 12'),
        ),
      ).toBe(0);
      await expect(createUserCommand(['--email', 'x@example.test'], io('whatever long'))).rejects.toThrow(
        /--password-stdin is required/,
      );
      await expect(createUserCommand(['--email', 'y@example.test', '--password-stdin'], io('short'))).rejects.toThrow(
        /at least 8/,
      );
    } finally {
      log.mockRestore();
    }
    const pending = await identity.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: 'seeded@example.test', password: 'seeded password 1' },
      remoteAddress: '10.3.0.1',
    });
    expect(pending.statusCode).toBe(403);
    const boss = await identity.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: 'boss@example.test', password: 'boss password 12' },
      remoteAddress: '10.3.0.1',
    });
    expect(boss.statusCode).toBe(200);
    expect(boss.json<{ user: Record<string, unknown> }>().user).toMatchObject({
      role: 'admin',
      banned: false,
      budgetCents: 700,
    });
    const { rows } = await identity.pool.query(
      `SELECT a.provider_id, a.account_id = u.id AS account_is_user, a.password LIKE '$argon2id$%' AS argon2
         FROM ${identity.tables.accounts} a JOIN ${identity.tables.users} u ON u.id = a.user_id WHERE u.email = $1`,
      ['boss@example.test'],
    );
    expect(rows).toEqual([{ provider_id: 'credential', account_is_user: true, argon2: true }]);
  });
});
