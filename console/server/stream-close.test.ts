import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { buildConsoleApp } from './app';
import { consoleEnv } from './config';

/**
 * A job's event stream through the whole console app, with real servers on loopback: the console with its real
 * logger, an identity service answering the preflight, an ingest API streaming Server-Sent Events, and an HTTP client
 * as the browser. A person closing a job tab is the normal end of a stream and no warning; an ingest API that breaks
 * mid-stream still is one.
 */
interface LogLine {
  level: number;
  msg?: string;
}

const lines: LogLine[] = [];
const logged: Array<() => void> = [];
let app: FastifyInstance;
let identity: http.Server;
let ingest: http.Server;
let webDir: string;
let consoleUrl: string;
/** The ingest API's side of each stream: its response (to break it) and a promise of its socket closing. */
const streams: Array<{ res: http.ServerResponse; closed: Promise<void> }> = [];
const streamOpened: Array<() => void> = [];

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  identity = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ user: { id: 'u1', email: 'ada@example.test', role: 'user' } }));
  });
  ingest = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const closed = new Promise<void>((resolve) => req.socket.once('close', () => resolve()));
    res.write('id: 1\ndata: {"kind":"level_started"}\n\n', () => {
      streams.push({ res, closed });
      for (const opened of streamOpened.splice(0)) opened();
    });
    // A live job keeps sending (events, heartbeats): the console is writing when the browser goes away, as it is when
    // a person closes a job tab.
    const beat = setInterval(() => res.write(': heartbeat\n\n'), 2);
    res.once('close', () => clearInterval(beat));
  });
  const identityUrl = await listen(identity);
  const ingestUrl = await listen(ingest);
  webDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-console-stream-'));
  await fs.writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Keel</title>\n');
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as LogLine);
      for (const waiter of logged.splice(0)) waiter();
      done();
    },
  });
  app = await buildConsoleApp(
    consoleEnv.parse({
      IDENTITY_URL: identityUrl,
      INGEST_API_URL: ingestUrl,
      CONSOLE_API_TOKEN: 'keel_console_token_value_of_enough_length',
      CONSOLE_WEB_DIR: webDir,
    }),
    { logger: { level: 'trace', stream: sink } },
  );
  consoleUrl = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app?.close();
  for (const server of [identity, ingest]) {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await fs.rm(webDir, { recursive: true, force: true });
});

/** Opens a job's stream through the console and reads its first event; answers the body and the ingest side. */
async function openStream() {
  const from = lines.length;
  const opened = new Promise<void>((resolve) => streamOpened.push(resolve));
  const res = await request(`${consoleUrl}/api/v1/jobs/job-1/stream`, {
    headers: { cookie: 'keel_session=s1', accept: 'text/event-stream' },
  });
  expect(res.statusCode).toBe(200);
  const reader = res.body[Symbol.asyncIterator]();
  expect(String((await reader.next()).value)).toContain('level_started');
  await opened;
  return { body: res.body, reader, upstream: streams[streams.length - 1]!, from };
}

/** Waits for the console's log line that ends the request, then answers the lines logged since `from`. */
async function requestEnded(from: number): Promise<LogLine[]> {
  const ended = (l: LogLine) =>
    /^(request completed|request errored|stream closed (prematurely|by the client)|response terminated with an error.*)$/.test(
      l.msg ?? '',
    );
  while (!lines.slice(from).some(ended)) await new Promise<void>((resolve) => logged.push(resolve));
  // The relay's own line (if any) comes with the same close; one more turn lets it land.
  await new Promise((resolve) => setImmediate(resolve));
  return lines.slice(from);
}

test('a browser closing a job stream ends the upstream request and logs no warning', async () => {
  const { body, upstream, from } = await openStream();
  body.destroy();
  // The console ended its request to the ingest API too (an SSE stream would otherwise stay open upstream).
  await upstream.closed;
  const since = await requestEnded(from);
  expect(since.filter((l) => l.level >= 40)).toEqual([]);
});

test('an ingest API breaking mid-stream is still a warning', async () => {
  const { body, upstream, from } = await openStream();
  upstream.res.socket?.destroy();
  const since = await requestEnded(from);
  body.destroy();
  expect(since.filter((l) => l.level === 40).map((l) => l.msg)).toEqual([
    'response terminated with an error with headers already sent',
  ]);
});
