import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { z } from 'zod';

export interface PgliteServer {
  /** A `postgres://` DSN of the server on loopback. */
  dsn: string;
  stop(): Promise<void>;
}

/**
 * An embedded PGlite (db/embedded.ts, as `npm start` runs it) on a file-backed `dataDir`, its one session's search path
 * on `schema`, served on a free loopback port by a child process (test/integration/pglite-server.ts): PGlite loads its
 * WebAssembly and extensions by dynamic import, which jest's module sandbox refuses.
 */
export async function startPgliteServer(dataDir: string, schema: string): Promise<PgliteServer> {
  const root = path.resolve(__dirname, '..', '..');
  const child = spawn(
    process.execPath,
    [path.join(__dirname, 'ts-entry.js'), path.join(__dirname, 'pglite-server.ts'), dataDir, schema],
    { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const first = await new Promise<string | undefined>((resolve) => {
    const lines = readline.createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve(line));
    child.once('exit', () => resolve(undefined));
  });
  if (!first) throw new Error(`the embedded PGlite did not start: ${stderr.trim()}`);
  const { dsn } = z.object({ dsn: z.string() }).parse(JSON.parse(first));
  return {
    dsn,
    async stop() {
      // Closing its standard input is the child's signal to close PGlite and exit.
      child.stdin.end();
      await exited;
    },
  };
}
