import Fastify from 'fastify';
import { Pool } from 'pg';
import { handleError, isDatabaseUnavailable } from './errors';

/** What node-postgres really throws when nothing listens where the database should be. */
async function refusedConnection(): Promise<unknown> {
  const pool = new Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', connectionTimeoutMillis: 2_000 });
  try {
    await pool.query('SELECT 1');
    throw new Error('a query on port 1 succeeded');
  } catch (err) {
    return err;
  } finally {
    await pool.end();
  }
}

function sqlError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

test('a database that cannot be reached or dropped the connection is unavailable; a refused query is not', async () => {
  expect(isDatabaseUnavailable(await refusedConnection())).toBe(true);
  expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  expect(isDatabaseUnavailable(sqlError('57P01', 'terminating connection due to administrator command'))).toBe(true);
  expect(isDatabaseUnavailable(sqlError('08006', 'connection failure'))).toBe(true);
  // A statement the server cancelled at its statement_timeout, and a server that never answered (pg's query_timeout).
  expect(isDatabaseUnavailable(sqlError('57014', 'canceling statement due to statement timeout'))).toBe(true);
  expect(isDatabaseUnavailable(new Error('Query read timeout'))).toBe(true);
  expect(isDatabaseUnavailable(sqlError('42601', 'syntax error at or near "SELEC"'))).toBe(false);
  expect(isDatabaseUnavailable(sqlError('23505', 'duplicate key value violates unique constraint'))).toBe(false);
  expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
});

test('the error handler answers an unreachable database with 503 database_unavailable and Retry-After', async () => {
  const app = Fastify();
  app.setErrorHandler(handleError);
  const unreachable = await refusedConnection();
  app.get('/down', () => Promise.reject(unreachable as Error));
  app.get('/broken', () => Promise.reject(sqlError('42601', 'syntax error')));
  const down = await app.inject({ url: '/down' });
  expect(down.statusCode).toBe(503);
  expect(down.headers['retry-after']).toBe('5');
  expect(down.json()).toEqual({
    error: { code: 'database_unavailable', message: 'the database is unavailable; retry' },
  });
  const broken = await app.inject({ url: '/broken' });
  expect(broken.statusCode).toBe(500);
  expect(broken.json()).toEqual({ error: { code: 'internal', message: 'internal error' } });
  await app.close();
});
