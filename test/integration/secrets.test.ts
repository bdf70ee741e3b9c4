import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { stringify } from 'yaml';
import { chatWebApiFromEnv } from '../../chat-relay/chat-app';
import { chatAppEnv } from '../../chat-relay/config';
import { runModelsCommand } from '../../cli/models';
import { streamJobEvents } from '../../cli/event-stream';
import { parseEnv } from '../../config/parse-env';
import type { ConnectorContext } from '../../connectors/contract';
import { createNotionConnector } from '../../connectors/notion/index';
import type { EventEnvelope } from '../../events/envelope';
import { loadCatalog, loadTeamControls } from '../../routing/catalog/load';
import type { Candidate, Catalog, ModelRow } from '../../routing/catalog/types';
import { shippedModelFiles } from '../../routing/config';
import { NoCandidateAnswered } from '../../routing/dispatch';
import { startDemoModelServer, type DemoModelServer } from '../../routing/demo-model/server';
import { buildRouter } from '../../routing/open-models';
import { secretsConfig } from '../../secrets/config';
import { createSecretStore, type SecretStore } from '../../secrets/store';
import { startFakeChatWebApi } from '../fakes/chat-web-api';
import { startFakeNotion } from '../fakes/fake-notion';
import { startKeyedModel } from '../fakes/keyed-model';
import { createTestQueue, startInfrastructure, startKeel } from './harness';

/**
 * The secrets store as its users rely on it: a provider keyed only in the store is configured and called with that
 * key; a rotated file is used by the next call with no restart; connectors never read a secret from a variable unless
 * the development option is on; and a secret a whole job used appears nowhere in its Temporal history, its events or
 * the logs.
 */

// Every log line of this process's Temporal runtime (workers, activities, workflow logs), at every level. Installed
// before the harness's own quiet logger, which then finds a runtime already in place.
const runtimeLog: string[] = [];
Runtime.install({
  logger: new DefaultLogger('TRACE', (entry) => runtimeLog.push(`${entry.message} ${safeJson(entry.meta)}`)),
});

let dir: string;
let demo: DemoModelServer;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-secrets-it-'));
  demo = await startDemoModelServer();
});

afterAll(async () => {
  await demo?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

/** The store a process with this environment builds (re-reading files on every use: no TTL to wait out). */
const storeFrom = (env: NodeJS.ProcessEnv): SecretStore =>
  createSecretStore(parseEnv(secretsConfig, { KEEL_SECRETS_TTL_MS: '0', ...env }, 'test'));

async function writeSecret(id: string, value: string): Promise<void> {
  await fs.mkdir(path.dirname(path.join(dir, id)), { recursive: true });
  await fs.writeFile(path.join(dir, id), `${value}\n`);
}

async function acmeRow(): Promise<ModelRow> {
  const shipped = await loadCatalog(shippedModelFiles().catalog);
  const row = shipped.models.find((m) => m.provider === 'demo')!;
  return { ...row, provider: 'acme', model: 'acme-1' };
}

/** A catalog whose only paid provider is keyed by secret id alone (no `auth.env`). */
async function acmeCatalog(baseUrl: string): Promise<Catalog> {
  return {
    providers: { acme: { wire: 'chat_compat', base_url: baseUrl, auth: { secret_id: 'keel/acme' } } },
    models: [await acmeRow()],
  };
}

describe('model providers', () => {
  test('keel models doctor: a provider keyed only in the store is configured, and its live call carries that key', async () => {
    const keyed = await startKeyedModel({ upstream: demo.baseUrl, key: 'sk-acme-doctor' });
    try {
      const files = {
        MODEL_CATALOG_PATH: path.join(dir, 'doctor-catalog.yaml'),
        TEAM_CONTROLS_PATH: path.join(dir, 'doctor-controls.yaml'),
      };
      await fs.writeFile(files.MODEL_CATALOG_PATH, stringify(await acmeCatalog(keyed.baseUrl)));
      await fs.writeFile(files.TEAM_CONTROLS_PATH, stringify({ providers: { acme: {} } }));
      const doctor = async (env: NodeJS.ProcessEnv) => {
        const lines: string[] = [];
        const code = await runModelsCommand(['doctor', 'acme'], { ...files, ...env }, (line = '') => lines.push(line));
        return { code, lines };
      };

      const before = await doctor({ KEEL_SECRETS_DIR: dir });
      expect(before.code).toBe(1);
      expect(before.lines.at(-1)).toBe(
        `✗ 2. not configured: set its key or secret keel/acme (the file ${path.join(dir, 'keel', 'acme')})`,
      );

      await writeSecret('keel/acme', 'sk-acme-doctor');
      const after = await doctor({ KEEL_SECRETS_DIR: dir });
      expect(after.lines[1]).toBe('✓ 2. configured (key from secret)');
      expect(after.lines.map((l) => l.slice(0, 4))).toEqual(['✓ 1.', '✓ 2.', '✓ 3.', '✓ 4.', '✓ 5.']);
      expect(after.code).toBe(0);
      expect(keyed.authorizations()).toEqual(['Bearer sk-acme-doctor']);
    } finally {
      await keyed.close();
      await fs.rm(path.join(dir, 'keel', 'acme'), { force: true });
    }
  });

  test('a rotated key file is used by the next call of the same router, with no restart', async () => {
    const keyed = await startKeyedModel({ upstream: demo.baseUrl, key: 'sk-acme-one' });
    const queue = await createTestQueue();
    const routerLog: string[] = [];
    try {
      await writeSecret('keel/acme', 'sk-acme-one');
      const catalog = await acmeCatalog(keyed.baseUrl);
      const router = await buildRouter(
        catalog,
        { providers: { acme: {} } },
        {},
        queue,
        (line) => routerLog.push(line),
        storeFrom({ KEEL_SECRETS_DIR: dir }),
      );
      const request = {
        candidates: [{ provider: 'acme', model: 'acme-1', tier: 'free', source: 'provider_default' } as Candidate],
        messages: [{ role: 'user' as const, content: 'Say hello.' }],
      };
      expect((await router.call(request)).provider).toBe('acme');

      // The vendor now takes only the new key: the old one is refused, so a stale cached key would fail here.
      keyed.expectKey('sk-acme-two');
      await expect(router.call(request)).rejects.toBeInstanceOf(NoCandidateAnswered);
      await writeSecret('keel/acme', 'sk-acme-two');
      expect((await router.call(request)).provider).toBe('acme');

      expect(keyed.authorizations()).toEqual(['Bearer sk-acme-one', 'Bearer sk-acme-one', 'Bearer sk-acme-two']);
      // The vendor's refusal echoed the stale key; the walk's log says why without it.
      expect(routerLog).toEqual([
        expect.stringMatching(/^acme\/acme-1: auth: .*Incorrect API key provided: \[secret\]/),
      ]);
    } finally {
      await queue.close();
      await keyed.close();
      await fs.rm(path.join(dir, 'keel', 'acme'), { force: true });
    }
  });
});

describe('connectors', () => {
  const notionEnv = (url: string): NodeJS.ProcessEnv => ({
    CONNECTOR_NOTION_WORKSPACE_SLUG: 'acme',
    CONNECTOR_NOTION_DEFAULT_SENSITIVITY: 'partner',
    NOTION_API_URL: url,
    CONNECTOR_NOTION_AUTH_SECRET_ID: 'notion-token',
  });
  /** What a connector run gives the connector (connectors/run-once.ts): the process's store, by id. */
  const contextOver = (secrets: SecretStore): ConnectorContext => ({
    secret: (id) => secrets.get(id),
    progress: () => undefined,
    signal: new AbortController().signal,
    log: () => undefined,
  });
  const readAll = async (env: NodeJS.ProcessEnv, secrets: SecretStore) => {
    const steps = [];
    for await (const step of createNotionConnector(env).read(undefined, contextOver(secrets))) steps.push(step);
    return steps;
  };

  test('a variable named after the secret id is never read; KEEL_SECRET_<ID> only with KEEL_SECRETS_FROM_ENV', async () => {
    const notion = await startFakeNotion();
    try {
      const env = { ...notionEnv(notion.url), 'notion-token': notion.token, KEEL_SECRET_NOTION_TOKEN: notion.token };
      await expect(readAll(env, storeFrom(env))).rejects.toThrow('secret "notion-token" is not set');
      await expect(readAll(env, storeFrom({ ...env, KEEL_SECRETS_DIR: dir }))).rejects.toThrow(
        'secret "notion-token" is not set',
      );

      const development = { ...env, KEEL_SECRETS_FROM_ENV: '1' };
      expect(await readAll(development, storeFrom(development))).toEqual([]);
    } finally {
      await notion.close();
    }
  });

  test('the token file is read at each run, so a rotated token is used by the next run', async () => {
    const first = await startFakeNotion({ token: 'secret_notion_one' });
    const second = await startFakeNotion({ token: 'secret_notion_two' });
    try {
      const secrets = storeFrom({ KEEL_SECRETS_DIR: dir });
      await writeSecret('notion-token', 'secret_notion_one');
      expect(await readAll(notionEnv(first.url), secrets)).toEqual([]);
      await writeSecret('notion-token', 'secret_notion_two');
      expect(await readAll(notionEnv(second.url), secrets)).toEqual([]);
      await expect(readAll(notionEnv(first.url), secrets)).rejects.toThrow(/401|unauthorized|invalid/i);
    } finally {
      await first.close();
      await second.close();
      await fs.rm(path.join(dir, 'notion-token'), { force: true });
    }
  });
});

describe('team chat', () => {
  test('the bot token is read from the store at each Web API call, so a rotated token is used at once', async () => {
    const chat = await startFakeChatWebApi({ token: 'xoxb-two' });
    try {
      await writeSecret('chat/bot', 'xoxb-one');
      const api = chatWebApiFromEnv(
        chatAppEnv.parse({ CHATAPP_BOT_TOKEN_SECRET_ID: 'chat/bot', CHATAPP_API_URL: chat.apiUrl }),
        storeFrom({ KEEL_SECRETS_DIR: dir }),
      )!;
      const post = { channel: 'C1', threadTs: '1800000000.000100', text: 'hello' };
      // The workspace only accepts the new token: the old one is refused.
      await expect(api.postMessage(post)).rejects.toThrow(/invalid_auth/);
      await writeSecret('chat/bot', 'xoxb-two');
      expect(await api.postMessage(post)).toMatch(/^\d+\.\d+$/);
      expect(chat.callsOf('chat.postMessage')).toHaveLength(1);

      await fs.rm(path.join(dir, 'chat', 'bot'));
      await expect(api.postMessage(post)).rejects.toThrow(
        /no chat bot token: secret chat\/bot is not in the secrets store/,
      );
    } finally {
      await chat.close();
    }
  });
});

describe('a whole job', () => {
  test('a planted provider key never appears in the Temporal history, the events or the logs', async () => {
    const planted = `sk-planted-${Math.random().toString(36).slice(2)}-do-not-leak`;
    const keyed = await startKeyedModel({ upstream: demo.baseUrl, key: planted });
    const consoleLines: string[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
      jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        consoleLines.push(args.map((a) => (typeof a === 'string' ? a : safeJson(a))).join(' '));
      }),
    );
    const infra = await startInfrastructure();
    const keel = await (async () => {
      await writeSecret('keel/demo', planted);
      const files = shippedModelFiles();
      const shipped = await loadCatalog(files.catalog);
      // The model every level falls back to, keyed only in the store (no auth.env), behind a key-checking vendor.
      const catalog: Catalog = {
        ...shipped,
        providers: { ...shipped.providers, demo: { ...shipped.providers.demo!, auth: { secret_id: 'keel/demo' } } },
      };
      return startKeel({
        ...infra,
        catalog,
        controls: await loadTeamControls(files.controls),
        demoBaseUrl: keyed.baseUrl,
        secrets: storeFrom({ KEEL_SECRETS_DIR: dir }),
      });
    })();
    try {
      await keel.startWorker();
      const prompt = 'Write notes.md with three bullet points about release notes';
      const response = await fetch(`${keel.baseUrl}/v1/chat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt }),
      });
      const { job_id: jobId } = (await response.json()) as { job_id: string };
      const events: EventEnvelope[] = [];
      for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) {
        events.push(event);
      }
      expect(events.at(-1)?.kind).toBe('final');
      // The job's model calls went out with the planted key, and only with it.
      expect(keyed.authorizations().length).toBeGreaterThan(0);
      expect(new Set(keyed.authorizations())).toEqual(new Set([`Bearer ${planted}`]));

      // Every workflow of the run (the job and its children), every event, every payload decoded to text.
      const client = infra.temporal.client;
      const histories: string[] = [];
      for await (const workflow of client.workflow.list()) {
        const history = await client.workflow.getHandle(workflow.workflowId, workflow.runId).fetchHistory();
        histories.push(textOf(history));
      }
      expect(histories.length).toBeGreaterThan(1);
      const allHistory = histories.join('\n');
      // Booleans, not the texts: a failure must not print whole histories.
      expect(allHistory.includes(prompt)).toBe(true);
      expect(allHistory.includes(planted)).toBe(false);

      const { rows } = await infra.db.pool.query<Record<string, unknown>>('SELECT * FROM job_events');
      const stored = safeJson(rows);
      expect(rows.length).toBe(events.length);
      expect(stored.includes(prompt)).toBe(true);
      expect(stored.includes(planted)).toBe(false);
      expect(safeJson(events).includes(planted)).toBe(false);

      expect(runtimeLog.length).toBeGreaterThan(0);
      expect(runtimeLog.join('\n').includes(planted)).toBe(false);
      expect(consoleLines.join('\n').includes(planted)).toBe(false);
    } finally {
      await keel.close();
      await infra.close();
      await keyed.close();
      for (const spy of spies) spy.mockRestore();
    }
  });
});

/**
 * A history as text: its JSON with every payload's data (bytes, or base64 in the JSON form `fetchHistory` returns)
 * decoded as UTF-8 in place, so a value inside any activity input or result, signal, memo or failure is searchable.
 */
function textOf(value: unknown): string {
  return JSON.stringify(value, (key, field: unknown) => {
    if (field instanceof Uint8Array) return Buffer.from(field).toString('utf8');
    if (key === 'data' && typeof field === 'string') return Buffer.from(field, 'base64').toString('utf8');
    return field;
  });
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, field: unknown) => (typeof field === 'bigint' ? field.toString() : field));
  } catch {
    return String(value);
  }
}
