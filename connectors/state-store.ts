import type { Pool, PoolClient } from 'pg';
import type { ConnectorName } from './contract';

type Queryable = Pool | PoolClient;

/** The stored cursor of a connector as raw JSON (the connector's cursorSchema parses it), or undefined before its first run. */
export async function readConnectorCursor(db: Queryable, connector: ConnectorName): Promise<unknown> {
  const { rows } = await db.query<{ cursor: unknown }>('SELECT cursor FROM connector_state WHERE connector = $1', [
    connector,
  ]);
  return rows[0]?.cursor;
}

/** Stores a connector's cursor (upsert): the next run starts from it. */
export async function writeConnectorCursor(db: Queryable, connector: ConnectorName, cursor: unknown): Promise<void> {
  await db.query(
    `INSERT INTO connector_state (connector, cursor) VALUES ($1, $2::jsonb)
     ON CONFLICT (connector) DO UPDATE SET cursor = EXCLUDED.cursor, updated_at = now()`,
    [connector, JSON.stringify(cursor)],
  );
}

/** Forgets a connector's cursor, so its next run reads everything again (writes stay idempotent). */
export async function resetConnectorCursor(db: Queryable, connector: ConnectorName): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM connector_state WHERE connector = $1', [connector]);
  return (rowCount ?? 0) > 0;
}
