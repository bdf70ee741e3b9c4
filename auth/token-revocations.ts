import type { FastifyBaseLogger } from 'fastify';
import type { Pool, PoolClient } from 'pg';
import type { IdentityTables } from '../db/qualified-tables';
import { revokeTokensPath } from '../http/internal-token';

/**
 * Revoking a disabled user's API tokens when the ingest API keeps a database of its own (docs/tokens.md): the
 * disabling transaction writes an outbox row, and this delivers each row to the ingest API's internal endpoint until it
 * answers 200. The endpoint is idempotent, so a row delivered twice (two replicas, a lost answer) does no harm, and
 * a row is never dropped: an ingest API that is down is tried again with a backoff capped at `MAX_BACKOFF_MS`.
 */

const REQUEST_TIMEOUT_MS = 5_000;
/** A replica that took a row holds it this long before another may try it (longer than one request). */
const LEASE_MS = 15_000;
const MAX_BACKOFF_MS = 30_000;
const BATCH = 20;

/** Written inside the disabling transaction, so the revocation is recorded exactly when the ban is. */
export async function recordRevocation(client: PoolClient, tables: IdentityTables, userId: string): Promise<void> {
  await client.query(`INSERT INTO ${tables.revocationOutbox} (user_id) VALUES ($1)`, [userId]);
}

export interface RevocationDelivery {
  /** Delivers what is due now (after a disable commits); resolves when this round is done. */
  kick(): Promise<void>;
  /** Stops the polling; a round under way finishes. */
  stop(): Promise<void>;
}

export interface RevocationDeliveryOptions {
  pool: Pool;
  tables: IdentityTables;
  /** The ingest API's base URL (INGEST_URL). */
  ingestUrl: string;
  /** The shared internal token (the identity service's INTERNAL_API_TOKEN). */
  internalToken: () => Promise<string> | string;
  log: FastifyBaseLogger;
  /** How often rows left undelivered (the ingest API was down) are looked for. */
  pollMs?: number;
}

/** Starts delivering; `stop()` it before the pool closes. */
export function startRevocationDelivery(options: RevocationDeliveryOptions): RevocationDelivery {
  const { pool, tables, log } = options;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const deliverOne = async (row: { id: string; user_id: string; attempts: number }): Promise<void> => {
    let error: string | undefined;
    try {
      const response = await fetch(new URL(revokeTokensPath(row.user_id), options.ingestUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${await options.internalToken()}` },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      await response.body?.cancel();
      if (!response.ok) error = `the ingest API answered ${response.status}`;
    } catch (err) {
      error = (err as Error).message;
    }
    if (error === undefined) {
      await pool.query(`UPDATE ${tables.revocationOutbox} SET delivered_at = now(), last_error = NULL WHERE id = $1`, [
        row.id,
      ]);
      log.info({ user_id: row.user_id, attempts: row.attempts }, 'api token revocation delivered to the ingest API');
      return;
    }
    const backoffMs = Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(row.attempts, 10));
    await pool.query(
      `UPDATE ${tables.revocationOutbox}
          SET next_attempt_at = now() + make_interval(secs => $2::double precision / 1000), last_error = $3
        WHERE id = $1`,
      [row.id, backoffMs, error],
    );
    log.warn({ user_id: row.user_id, attempts: row.attempts, error }, 'api token revocation not delivered; will retry');
  };

  const round = async (): Promise<void> => {
    // Takes the due rows under a lease, so another replica's round skips them while this one delivers.
    const { rows } = await pool.query<{ id: string; user_id: string; attempts: number }>(
      `UPDATE ${tables.revocationOutbox}
          SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => $1::double precision / 1000)
        WHERE id IN (SELECT id FROM ${tables.revocationOutbox}
                      WHERE delivered_at IS NULL AND next_attempt_at <= now()
                      ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING id, user_id, attempts`,
      [LEASE_MS, BATCH],
    );
    await Promise.all(rows.map(deliverOne));
  };

  const kick = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await round().catch((err: unknown) => log.warn({ err }, 'api token revocations: a delivery round failed'));
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  const timer = setInterval(() => void kick(), options.pollMs ?? 2_000);
  timer.unref();
  void kick();
  return {
    kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
