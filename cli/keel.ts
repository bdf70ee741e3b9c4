// `npx keel`: submit a job and watch it live, or mint an API token.
import path from 'node:path';
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
import { readStackState } from '../stack/state-file';
import { ApiUnreachable, resolveApi, submitJob, UsageError } from './api';
import { loadCliConfig, loadConnectorCommandConfig, loadKbCommandConfig, type CliEnv } from './config';
import { dataOf } from '../clients/client';
import { reach } from './api-request';
import { ApiError } from './api-error';
import { followJob } from './follow';
import { runAnswer, runApprove, runCancel, runJobs, runWatch } from './job-commands';
import { runCompare, runFork } from './fork-commands';
import { BUDGET_USAGE, runBudget } from './budget-commands';
import { CommandFailed } from './command-failed';
import type * as ConnectorCommand from './connector';
import { runFollowUp, runPrompt } from './follow-up-commands';
import { POLICY_USAGE, runPolicy } from './policy-commands';
import { runWebhooks, WEBHOOKS_USAGE } from './webhook-commands';
import type * as KbCommands from './kb';
import type * as MigrateCommand from './migrate';
import type * as ModelsCommand from './models';
import { CONNECTOR_USAGE, KB_USAGE, MIGRATE_USAGE, MODELS_USAGE } from './command-usage';
import type { RenderStyle } from './render';

const USAGE = `Usage:
  keel job "<prompt>" [--project <slug>] [--workflow <wf-id>] [--tier free|cheap|frontier] [--scenario <name>]
           [--json [--deltas]]
      Submit a job and render its events live until final, the model output streaming under the level on a
      terminal; answers questions and approvals on the terminal; exits 1 on error. Ctrl-C asks whether to cancel
      the job or detach (exit 130; without a terminal: detach). --json prints one JSON event per line (durable
      events only; --deltas adds the live model output as {"delta": …} lines). Demo directives in the prompt:
      #ask, #approve, #verify-fail=N, #slow.
  keel jobs [--status running|queued|pending|completed|failed|cancelled] [--limit N] [--json]
      Recent jobs (the latest of each workflow), newest first; --json prints a JSON array.
  keel watch <job> [--json [--deltas]]
      Attach to a running or finished job: every event from the start, then live until it ends (Ctrl-C as for job).
  keel cancel <job>
      Cancel a job that has not finished.
  keel fork <job> --from <level_run|sequence> [--prompt <text>] [--tier <tier>] [--budget <usd>] [--watch] [--json]
      A new job that carries the job's level runs up to the fork point over (no model call) from its workspace as
      it stood then, and runs on with the new prompt or tier. --from: a level run (L3.verifier/1 or its full id)
      or an event sequence (0: from the start). --tier: free, cheap or frontier. --budget: the fork's own
      ceiling in USD (else its source's). Prints the new job id; --watch follows it as keel watch does.
  keel compare <a> <b> [--json]
      The files (with unified diffs) and level runs (cost, duration, carried over) that differ between two jobs.
  keel answer <job> [text] [--call <call-id>]
      Answer the question the job waits on (the text, else typed at the prompt or read from stdin).
  keel approve <approval> [--reject] [--comment <text>]
      Approve (or reject) the action an approval asks for.
${BUDGET_USAGE}
${WEBHOOKS_USAGE}
${POLICY_USAGE}
  keel workflows [--project <slug>] [--limit <n>] [--hidden]
      List the org's workflows, newest first: id, status, project, last update.
  keel prompt <wf-id> "<prompt>" [--follow-up amend|enqueue|interrupt|reject] [--json]
      Add a prompt to a workflow. While one of its jobs runs, the workflow's follow-up policy decides (amend by
      default; --follow-up for this prompt only): join that job, run next, interrupt it, or be refused. Prints the
      job that takes it.
  keel follow-up <wf-id> amend|enqueue|interrupt|reject|none
      Set the workflow's follow-up policy (none clears it). docs/follow-up-policies.md.
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

/* eslint-disable @typescript-eslint/no-require-imports */
/**
 * The commands that load the database, the knowledge index, connectors or routing, required when they run: the job
 * commands (`keel job`, `watch`, `jobs`, `answer`…) load only the HTTP client and start in a fraction of the time.
 */
const later = {
  migrate: () => require('./migrate') as typeof MigrateCommand,
  kb: () => require('./kb') as typeof KbCommands,
  connector: () => require('./connector') as typeof ConnectorCommand,
  models: () => require('./models') as typeof ModelsCommand,
};
/* eslint-enable @typescript-eslint/no-require-imports */

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // Each command parses every variable it uses before it opens anything.
  if (command === 'migrate') return later.migrate().runMigrateCommand(process.env);
  if (command === 'kb') {
    return later.kb().runKbCommand(loadKbCommandConfig(process.env), rest, openDatabase);
  }
  if (command === 'connector') {
    const { runConnectorCommand } = later.connector();
    return runConnectorCommand(loadConnectorCommandConfig(process.env), rest, openDatabase);
  }
  const env = loadCliConfig(process.env);
  if (command === 'job') return runJob(env, rest);
  if (command === 'workflows') return listWorkflows(env, rest);
  if (command === 'prompt') return runPrompt(resolveApi(env), rest);
  if (command === 'follow-up') return runFollowUp(resolveApi(env), rest);
  if (command === 'jobs') return runJobs(resolveApi(env), rest, terminalStyle(env));
  if (command === 'watch') return runWatch(resolveApi(env), rest, terminalStyle(env));
  if (command === 'cancel') return runCancel(resolveApi(env), rest);
  if (command === 'fork') return runFork(resolveApi(env), rest, terminalStyle(env));
  if (command === 'compare') return runCompare(resolveApi(env), rest);
  if (command === 'answer') return runAnswer(resolveApi(env), rest);
  if (command === 'approve') return runApprove(resolveApi(env), rest);
  if (command === 'budget') return runBudget(resolveApi(env), rest);
  if (command === 'webhooks') return runWebhooks(resolveApi(env), rest);
  if (command === 'policy') return runPolicy(resolveApi(env), rest);
  if (command === 'token' && rest[0] === 'create') return createTokenCommand(env, rest.slice(1));
  if (command === 'token' && (rest[0] === 'list' || rest[0] === 'revoke')) {
    const run = rest[0] === 'list' ? listTokensCommand : revokeTokenCommand;
    return withMigratedDatabase(env, (pool) => run(pool, rest.slice(1), (line) => console.log(line)));
  }
  if (command === 'models') return later.models().runModelsCommand(rest, process.env);
  if (command === 'kb-mcp') return later.kb().runKbMcpCommand(env);
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

/** `keel workflows [--project <slug>] [--limit <n>] [--hidden]`: the org's workflows, newest first, one a line. */
async function listWorkflows(env: CliEnv, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { project: { type: 'string' }, limit: { type: 'string' }, hidden: { type: 'boolean', default: false } },
  });
  const page = await reach(resolveApi(env), async (client) =>
    dataOf(
      await client.GET('/v1/workflows', {
        params: {
          query: {
            ...(values.project ? { project_slug: values.project } : {}),
            ...(values.limit ? { limit: values.limit } : {}),
            ...(values.hidden ? { include_hidden: 'true' as const } : {}),
          },
        },
      }),
    ),
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
      json: { type: 'boolean', default: false },
      deltas: { type: 'boolean', default: false },
    },
  });
  const prompt = positionals.join(' ').trim();
  if (!prompt) throw new UsageError('keel job needs a prompt');
  const target = resolveApi(env);
  const job = await submitJob(target, {
    prompt,
    ...(values.project ? { project_slug: values.project } : {}),
    ...(values.workflow ? { workflow_id: values.workflow } : {}),
    ...(values.tier ? { metadata: { model_tier: parseTier(values.tier) } } : {}),
    ...(values.scenario ? { scenario: values.scenario } : {}),
  });
  // With --json, stdout holds events only; what a person reads goes to stderr.
  const say = values.json ? (line: string) => console.error(line) : (line: string) => console.log(line);
  say(`job ${job.job_id}  (workflow ${job.workflow_id}, prompt ${job.prompt_id})`);
  if (target.stack?.temporal_ui_url) {
    say(`Temporal UI: ${target.stack.temporal_ui_url}/namespaces/default/workflows/${encodeURIComponent(job.job_id)}`);
  }
  return followJob({
    target,
    jobId: job.job_id,
    json: values.json,
    deltas: values.deltas,
    style: terminalStyle(env),
    answer: true,
  });
}

/** Colours on a terminal unless NO_COLOR; previews cut to the terminal's width. */
function terminalStyle(env: CliEnv): RenderStyle {
  const tty = Boolean(process.stdout.isTTY);
  return { color: tty && !env.NO_COLOR, width: tty ? process.stdout.columns : undefined };
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
    else if (err instanceof ConfigError || err instanceof ApiError || err instanceof ApiUnreachable)
      console.error(err.message);
    else console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  });
