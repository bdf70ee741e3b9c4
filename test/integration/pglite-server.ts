// A child process of a test serving an embedded PGlite on loopback (PGlite loads its WebAssembly and extensions by
// dynamic import, which jest's module sandbox refuses). Prints `{"dsn": …}` on one line once it listens; stops when
// its standard input closes (the test ended, or died) or on SIGTERM.
import { startEmbeddedPostgres } from '../../db/embedded';

async function main(): Promise<void> {
  const [dataDir, schema] = process.argv.slice(2);
  if (!dataDir || !schema) throw new Error('usage: pglite-server.ts <data dir> <schema>');
  const embedded = await startEmbeddedPostgres({ dataDir, port: 0, schema });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void embedded.close().finally(() => process.exit(0));
  };
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
  process.once('SIGTERM', stop);
  process.stdout.write(`${JSON.stringify({ dsn: embedded.dsn })}\n`);
}

main().catch((err: unknown) => {
  console.error(`pglite-server: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
