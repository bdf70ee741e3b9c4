import fs from 'node:fs/promises';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

export interface EmbeddedPostgres {
  /** A `postgres://` DSN that `pg` (and psql) can use while the server runs. */
  dsn: string;
  close(): Promise<void>;
}

/**
 * What runs in the database's thread: PGlite (PostgreSQL in WebAssembly, with pgvector) on a file-backed data
 * directory, served over the Postgres wire protocol on loopback. Plain CommonJS evaluated by the worker, so it runs the
 * same from dist/ and from the TypeScript sources under test; the packages are resolved here and passed in.
 */
const DATABASE_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require(workerData.modules.pglite);
const { vector } = require(workerData.modules.vector);
const { PGLiteSocketServer } = require(workerData.modules.socket);
(async () => {
  const { dataDir, port, schema } = workerData;
  const db = await PGlite.create({ dataDir, extensions: { vector } });
  await db.exec('CREATE SCHEMA IF NOT EXISTS "' + schema + '"; SET search_path TO "' + schema + '", public');
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 8 });
  try {
    await server.start();
  } catch (err) {
    await db.close();
    parentPort.postMessage({ error: 'embedded PostgreSQL could not listen on 127.0.0.1:' + port + ': ' + err.message });
    return;
  }
  parentPort.postMessage({ conn: server.getServerConn() });
  parentPort.once('message', async () => {
    await server.stop();
    await db.close();
    parentPort.close();
  });
})().catch((err) => parentPort.postMessage({ error: 'embedded PostgreSQL did not start: ' + (err && err.message) }));
`;

/**
 * Starts PGlite on a file-backed data directory and serves it over the Postgres wire protocol on loopback, in a
 * worker thread of its own. PostgreSQL in WebAssembly runs synchronously: on the main thread every query held the
 * event loop that the API, the worker's activities and the job streams share (a third of the stack's CPU over a
 * profiled run of jobs, docs/performance.md), where PostgreSQL proper runs beside them on another core.
 * In a thread of its own it does too. PGlite is single-connection: the socket server queues every client's queries
 * onto it, and the stack keeps its own pool at one connection so transactions never interleave. A second process
 * (e.g. `keel token create`) may connect briefly.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  schema: string;
}): Promise<EmbeddedPostgres> {
  await fs.mkdir(options.dataDir, { recursive: true });
  const modules = {
    pglite: require.resolve('@electric-sql/pglite'),
    vector: require.resolve('@electric-sql/pglite-pgvector'),
    socket: require.resolve('@electric-sql/pglite-socket'),
  };
  const thread = new Worker(DATABASE_THREAD, { eval: true, workerData: { ...options, modules } });
  const exited = once(thread, 'exit');
  const [started] = (await Promise.race([
    once(thread, 'message'),
    exited.then(() => [{ error: 'embedded PostgreSQL: its thread exited while starting' }]),
  ])) as [{ conn?: string; error?: string }];
  if (!started.conn) {
    await thread.terminate();
    throw new Error(started.error);
  }
  return {
    dsn: `postgres://postgres@${started.conn}/postgres?sslmode=disable`,
    async close() {
      // The thread stops its server and closes the database (writing it out), then ends.
      thread.postMessage('close');
      await exited;
    },
  };
}
