import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findTemporalCli } from '../../temporal/cli-path';
import { startDevServer, type DevServer } from '../../temporal/dev-server';
import { eventually } from './eventually';

/*
 * The fault drills' own services: a PostgreSQL cluster, a Redis and a Temporal dev server that the test starts, stops
 * and restarts on fixed ports (never the machine's shared ones), and the API and worker as separate processes run from
 * dist/, as in production.
 */

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Waits until `check` is true, polling; fails with `what` after `timeoutMs`. */
function postgresBin(): string {
  const base = '/usr/lib/postgresql';
  const versions = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error(`no PostgreSQL server binaries under ${base}`);
  return path.join(base, versions[0]!, 'bin');
}

/** initdb refuses to run as root: then the cluster belongs to the `postgres` user. */
function asClusterOwner(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

export interface PostgresCluster {
  dsn: string;
  start(): Promise<void>;
  /** `immediate`: the server drops every connection at once, as a crash or a failover does. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-drill-pg-'));
  const data = path.join(dir, 'data');
  if (process.getuid?.() === 0) await run('chown', ['-R', 'postgres', dir]);
  const port = await freePort();
  const pg = (args: string[]) => run(...asClusterOwner(path.join(bin, 'pg_ctl'), args));
  await run(...asClusterOwner(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']));
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const cluster: PostgresCluster = {
    dsn: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      await pg(['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', 'start']);
    },
    async stop(mode = 'fast') {
      await pg(['-D', data, '-m', mode, '-w', 'stop']);
    },
    async destroy() {
      await cluster.stop('immediate').catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}

export interface RedisServer {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A redis-server on `port` (a free one by default): a test may point a process at the port before Redis is there. */
export async function startRedis(port?: number): Promise<RedisServer> {
  port ??= await freePort();
  let child: ChildProcess | undefined;
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {
          stdio: 'ignore',
        },
      );
      await eventually(() => portOpen(port), { what: 'redis', timeoutMs: 10_000, intervalMs: 200 });
    },
    async stop() {
      if (!child) return;
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      child = undefined;
    },
  };
  await server.start();
  return server;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface TemporalServer {
  address: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The Temporal dev server on a SQLite file, so a restart keeps every workflow. */
export async function startTemporalServer(dataDir: string): Promise<TemporalServer> {
  const cliPath = findTemporalCli(process.env.TEMPORAL_CLI_PATH);
  if (!cliPath) throw new Error('the Temporal CLI is not installed (TEMPORAL_CLI_PATH)');
  const port = await freePort();
  const uiPort = await freePort();
  let dev: DevServer | undefined;
  const server: TemporalServer = {
    address: `127.0.0.1:${port}`,
    async start() {
      dev = await startDevServer({ cliPath, dataDir, port, uiPort, namespace: 'default' });
    },
    async stop() {
      await dev?.stop();
      dev = undefined;
    },
  };
  await server.start();
  return server;
}

export interface KeelProcess {
  readonly pid: number;
  /** Everything the process wrote, for a failure message. */
  output(): string;
  exited: Promise<number | null>;
  alive(): boolean;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** The compiled entry points of the production shape (docs/deployment.md), one per kind of process. */
export type KeelEntryPoint = 'api-main' | 'worker-main' | 'identity-main' | 'console-main';

/**
 * Runs a compiled entry point (dist/stack/<name>.js) with `env` and nothing else from this process's environment but
 * PATH and HOME, as `npm run start:api`, `start:worker`, `start:auth` and `start:console` do.
 */
export function startKeelProcess(entry: KeelEntryPoint, env: Record<string, string>): KeelProcess {
  const child = spawn(process.execPath, [path.join(root, 'dist', 'stack', `${entry}.js`)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    pid: child.pid!,
    output: () => output,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
