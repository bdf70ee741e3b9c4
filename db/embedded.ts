import fs from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  /** A `postgres://` DSN that `pg` (and psql) can use while the server runs. */
  dsn: string;
  close(): Promise<void>;
}

/**
 * Starts PGlite (PostgreSQL in WebAssembly, with pgvector) on a file-backed data directory and serves
 * it over the Postgres wire protocol on loopback. PGlite is single-connection: the socket server
 * queues every client's queries onto it, and the stack keeps its own pool at one connection so
 * transactions never interleave. A second process (e.g. `keel token create`) may connect briefly.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  schema: string;
}): Promise<EmbeddedPostgres> {
  await fs.mkdir(options.dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir: options.dataDir, extensions: { vector } });
  // Every socket client shares PGlite's one session, and PGlite ignores startup parameters, so the
  // search path is set once here rather than per connection.
  await db.exec(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"; SET search_path TO "${options.schema}", public`);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: options.port, maxConnections: 8 });
  try {
    await server.start();
  } catch (err) {
    await db.close();
    throw new Error(`embedded PostgreSQL could not listen on 127.0.0.1:${options.port}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const conn = server.getServerConn();
  return {
    dsn: `postgres://postgres@${conn}/postgres?sslmode=disable`,
    async close() {
      await server.stop();
      await db.close();
    },
  };
}
