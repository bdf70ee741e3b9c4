// `npx keel`: submit a job and watch it live, or mint an API token.
import path from 'node:path';
import readline from 'node:readline/promises';
import { parseArgs } from 'node:util';
import type { Pool } from 'pg';
import { CREATE_USER_USAGE, CreateUserUsageError, createUserCommand, readAllStdin } from '../auth/cli-create-user';
import { ConfigError } from '../config/parse-env';
import { startEmbeddedPostgres } from '../db/embedded';
import { migrate } from '../db/migrate';
import { createPool } from '../db/pool';
import { createToken } from '../db/tokens';
import { cliExpiry, listTokensCommand, revokeTokenCommand, TOKEN_USAGE } from './token';
import { setClearance } from '../kb/clearance';
import { SensitivitySchema } from '../kb/sensitivity';
import { readDevToken, readStackState } from '../stack/state-file';
import { loadCliConfig, loadConnectorCommandConfig, loadKbCommandConfig, type CliEnv } from './config';
import { CONNECTOR_USAGE, runConnectorCommand } from './connector';
import { apiClient, dataOf } from './api-client/client';
import { ApiError, ensureOk, streamJobEvents } from './event-stream';
import { KB_USAGE, runKbCommand, runKbMcpCommand } from './kb';
import { MIGRATE_USAGE, runMigrateCommand } from './migrate';
import { CommandFailed, MODELS_USAGE, runModelsCommand } from './models';
import { renderEvent } from './render';

const USAGE = `Usage:
  keel job "<prompt>" [--project <slug>] [--workflow <wf-id>] [--tier free|cheap|frontier] [--scenario <name>]
      Submit a job and render its events live until final; answers questions and approvals on the terminal;
      exits 1 on error. Demo directives in the prompt: #ask, #approve, #verify-fail=N, #slow.
  keel workflows [--project <slug>] [--limit <n>] [--hidden]
      List the org's workflows, newest first: id, status, project, last update.
  keel token create --user <id> [--org <id>] [--admin] [--acts-for-users] [--label <text>]
                    [--kb-clearance public|partner|internal|secret] [--expires-in <days>d | --no-expiry]
      Create an API token and print it once; --kb-clearance caps the hub sensitivity it reads (default internal,
      admin secret); --acts-for-users makes it the console's token (CONSOLE_API_TOKEN), which names the signed-in
      user it acts for. It expires after 90 days (--expires-in 30d) unless --no-expiry (service tokens).
${TOKEN_USAGE}
${MIGRATE_USAGE}
${KB_USAGE}
${CONNECTOR_USAGE}
${CREATE_USER_USAGE}
${MODELS_USAGE}
      List the catalog, show a level's candidates, validate catalog files, diagnose a provider.

Environment: KEEL_API_URL, KEEL_TOKEN (default: the running stack's dev token), DATA_DIR, POSTGRES_DSN.`;

class UsageError extends Error {
  override name = 'UsageError';
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // Each command parses every variable it uses before it opens anything.
  if (command === 'migrate') return runMigrateCommand(process.env);
  if (command === 'kb') return runKbCommand(loadKbCommandConfig(process.env), rest, openDatabase);
  if (command === 'connector') return runConnectorCommand(loadConnectorCommandConfig(process.env), rest, openDatabase);
  const env = loadCliConfig(process.env);
  if (command === 'job') return runJob(env, rest);
  if (command === 'workflows') return listWorkflows(env, rest);
  if (command === 'token' && rest[0] === 'create') return createTokenCommand(env, rest.slice(1));
  if (command === 'token' && (rest[0] === 'list' || rest[0] === 'revoke')) {
    const run = rest[0] === 'list' ? listTokensCommand : revokeTokenCommand;
    return withMigratedDatabase(env, (pool) => run(pool, rest.slice(1), (line) => console.log(line)));
  }
  if (command === 'models') return runModelsCommand(rest, process.env);
  if (command === 'kb-mcp') return runKbMcpCommand(env);
  if (command === 'auth' && rest[0] === 'create-user') {
    return createUserCommand(rest.slice(1), {
      env: process.env,
      readStdin: readAllStdin,
      openDatabase: (override) => openDatabase(env, override),
    });
  }
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return 0;
  }
  throw new UsageError(`unknown command: ${argv.join(' ')}`);
}

const TIERS = ['free', 'cheap', 'frontier'] as const;

function parseTier(tier: string): (typeof TIERS)[number] {
  const known = TIERS.find((t) => t === tier);
  if (!known) throw new UsageError(`--tier is one of ${TIERS.join(', ')}`);
  return known;
}

/** The API's address and token for commands that call it: the flags' environment, else the running stack's. */
function apiAccess(env: CliEnv): { baseUrl: string; token: string; stack: ReturnType<typeof readStackState> } {
  const stack = readStackState(env.DATA_DIR);
  const baseUrl = (env.KEEL_API_URL ?? stack?.api_url ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
  const token = env.KEEL_TOKEN ?? readDevToken(env.DATA_DIR);
  if (!token) throw new UsageError('no API token: set KEEL_TOKEN, or start Keel with `npm start` to get a dev token');
  return { baseUrl, token, stack };
}

/** `keel workflows [--project <slug>] [--limit <n>] [--hidden]`: the org's workflows, newest first, one a line. */
async function listWorkflows(env: CliEnv, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { project: { type: 'string' }, limit: { type: 'string' }, hidden: { type: 'boolean', default: false } },
  });
  const { baseUrl, token } = apiAccess(env);
  const page = dataOf(
    await apiClient(baseUrl, token).GET('/v1/workflows', {
      params: {
        query: {
          ...(values.project ? { project_slug: values.project } : {}),
          ...(values.limit ? { limit: values.limit } : {}),
          ...(values.hidden ? { include_hidden: 'true' as const } : {}),
        },
      },
    }),
  );
  for (const wf of page.workflows) {
    const project = wf.project_slug ?? '-';
    console.log(`${wf.workflow_id}\t${wf.status}\t${project}\t${wf.updated_at}${wf.hidden ? '\thidden' : ''}`);
  }
  if (page.workflows.length === 0) console.log('no workflows');
  return 0;
}

async function runJob(env: CliEnv, args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      project: { type: 'string' },
      workflow: { type: 'string' },
      tier: { type: 'string' },
      scenario: { type: 'string' },
    },
  });
  const prompt = positionals.join(' ').trim();
  if (!prompt) throw new UsageError('keel job needs a prompt');
  const { baseUrl, token, stack } = apiAccess(env);

  const job = dataOf(
    await apiClient(baseUrl, token).POST('/v1/chat', {
      body: {
        prompt,
        ...(values.project ? { project_slug: values.project } : {}),
        ...(values.workflow ? { workflow_id: values.workflow } : {}),
        ...(values.tier ? { metadata: { model_tier: parseTier(values.tier) } } : {}),
        ...(values.scenario ? { scenario: values.scenario } : {}),
      },
    }),
  );
  const style = { color: Boolean(process.stdout.isTTY) && !env.NO_COLOR };
  console.log(`job ${job.job_id}  (workflow ${job.workflow_id}, prompt ${job.prompt_id})`);
  if (stack?.temporal_ui_url) {
    console.log(`Temporal UI: ${stack.temporal_ui_url}/namespaces/default/workflows/${encodeURIComponent(job.job_id)}`);
  }

  // Reconnect with Last-Event-ID if the connection drops before a terminal event.
  let last = 0;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      for await (const event of streamJobEvents({ baseUrl, token, jobId: job.job_id, lastEventId: last })) {
        last = event.sequence;
        const line = renderEvent(event, style);
        if (line) console.log(line);
        if (event.kind === 'human_task_assigned') {
          console.log(`  (when done: POST /v1/human-tasks/${String(event.payload.task_id)}/complete)`);
        }
        if (event.kind === 'ask_user' || event.kind === 'approval_requested') {
          await answerOnTerminal(baseUrl, token, job.job_id, event.kind, event.payload);
        }
        if (event.kind === 'final') return 0;
        if (event.kind === 'error') return 1;
      }
    } catch (err) {
      if (err instanceof ApiError) throw err;
      console.error(`stream interrupted (${(err as Error).message}); reconnecting after event ${last}`);
    }
  }
  console.error('the stream ended without a terminal event');
  return 1;
}

/**
 * A person at a terminal answers where the job waits: the answer goes to POST /v1/jobs/:id/resume, an
 * approval to POST /v1/approvals/:id/decide. Without a terminal the job keeps waiting for an API call.
 */
async function answerOnTerminal(
  baseUrl: string,
  token: string,
  jobId: string,
  kind: string,
  payload: Record<string, unknown>,
): Promise<void> {
  if (!process.stdin.isTTY) {
    console.log(
      kind === 'ask_user'
        ? `  (answer with POST /v1/jobs/${jobId}/resume)`
        : '  (decide with POST /v1/approvals/<id>/decide)',
    );
    return;
  }
  const terminal = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    if (kind === 'ask_user') {
      const answer = (await terminal.question('  your answer> ')).trim() || '(no answer)';
      await ensureOk(
        await fetch(`${baseUrl}/v1/jobs/${encodeURIComponent(jobId)}/resume`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ call_id: payload.call_id, answer }),
        }),
      );
    } else {
      const reply = (await terminal.question('  approve? [y/N]> ')).trim().toLowerCase();
      await ensureOk(
        await fetch(`${baseUrl}/v1/approvals/${encodeURIComponent(String(payload.approval_id))}/decide`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ decision: reply === 'y' || reply === 'yes' ? 'approve' : 'reject' }),
        }),
      );
    }
  } finally {
    terminal.close();
  }
}

async function withMigratedDatabase(env: CliEnv, run: (pool: Pool) => Promise<number>): Promise<number> {
  const database = await openDatabase(env);
  try {
    await migrate(database.pool, env.POSTGRES_SCHEMA);
    return await run(database.pool);
  } finally {
    await database.close();
  }
}

async function createTokenCommand(env: CliEnv, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      user: { type: 'string' },
      org: { type: 'string' },
      admin: { type: 'boolean', default: false },
      'acts-for-users': { type: 'boolean', default: false },
      label: { type: 'string' },
      'kb-clearance': { type: 'string' },
      'expires-in': { type: 'string' },
      'no-expiry': { type: 'boolean', default: false },
    },
  });
  if (!values.user) throw new UsageError('keel token create needs --user <id>');
  const clearance =
    values['kb-clearance'] === undefined ? undefined : SensitivitySchema.safeParse(values['kb-clearance']);
  if (clearance && !clearance.success)
    throw new UsageError('--kb-clearance is one of public, partner, internal, secret');
  let expiresAt: Date | null;
  try {
    expiresAt = cliExpiry(values, Date.now());
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const database = await openDatabase(env);
  const { pool } = database;
  try {
    await migrate(pool, env.POSTGRES_SCHEMA);
    const { token, tokenId } = await createToken(pool, {
      userId: values.user,
      orgId: values.org ?? values.user,
      isAdmin: values.admin,
      label: values.label,
      actsForUsers: values['acts-for-users'],
      expiresAt,
    });
    if (clearance?.success) await setClearance(pool, tokenId, clearance.data);
    console.log(token);
    return 0;
  } finally {
    await database.close();
  }
}

/**
 * `override` (the identity database's DATABASE_URL); else POSTGRES_DSN; else the running stack's embedded
 * database; else the embedded database's files directly.
 */
async function openDatabase(
  env: CliEnv,
  override?: { dsn: string; ssl: boolean },
): Promise<{ pool: Pool; close(): Promise<void> }> {
  if (override) {
    const pool = createPool({ dsn: override.dsn, max: 1, ssl: override.ssl, schema: env.POSTGRES_SCHEMA });
    return { pool, close: () => pool.end() };
  }
  const options = { max: 1, ssl: env.POSTGRES_SSL, schema: env.POSTGRES_SCHEMA };
  const dsn = env.POSTGRES_DSN ?? readStackState(env.DATA_DIR)?.embedded_postgres_dsn;
  if (dsn) {
    const pool = createPool({ dsn, ...options, ssl: env.POSTGRES_DSN ? options.ssl : false });
    return { pool, close: () => pool.end() };
  }
  const embedded = await startEmbeddedPostgres({
    dataDir: path.resolve(env.DATA_DIR, 'pglite'),
    port: 0,
    schema: env.POSTGRES_SCHEMA,
  });
  const pool = createPool({ dsn: embedded.dsn, ...options, ssl: false });
  return {
    pool,
    async close() {
      await pool.end();
      await embedded.close();
    },
  };
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((err: unknown) => {
    if (err instanceof UsageError) console.error(`${err.message}\n\n${USAGE}`);
    else if (err instanceof CreateUserUsageError) console.error(`${err.message}\n\nUsage:\n${CREATE_USER_USAGE}`);
    else if (err instanceof CommandFailed) console.error(err.message);
    else if (err instanceof ConfigError || err instanceof ApiError) console.error(err.message);
    else console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  });
