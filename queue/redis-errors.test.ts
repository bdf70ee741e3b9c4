import { Redis } from 'ioredis';
import { logRedisErrors } from './redis-errors';

/** A real ioredis client reconnecting to a port where nothing listens, every 10 ms: a Redis outage, fast. */
test('an outage is one warn line however many reconnects fail', async () => {
  const lines: Array<{ level: 'warn' | 'info'; fields: Record<string, unknown>; message: string }> = [];
  const log = {
    warn: (fields: Record<string, unknown>, message: string) => lines.push({ level: 'warn', fields, message }),
    info: (fields: Record<string, unknown>, message: string) => lines.push({ level: 'info', fields, message }),
  };
  const client = new Redis('redis://127.0.0.1:1', { retryStrategy: () => 10, maxRetriesPerRequest: 0 });
  let errors = 0;
  logRedisErrors(client, log, 'test');
  try {
    await new Promise<void>((resolve) =>
      client.on('error', () => {
        errors += 1;
        if (errors === 20) resolve();
      }),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', fields: { redis: 'test', err: { code: 'ECONNREFUSED' } } });
    expect(lines[0]!.message).toMatch(/^Redis \(test\) unavailable: connect ECONNREFUSED/);
  } finally {
    client.disconnect();
  }
});
