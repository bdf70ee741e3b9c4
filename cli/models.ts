// `npx keel models …`: the operator's view of routing: what exists, what a level would get, and why a provider fails.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createQueueStore } from '../queue/create-queue-store';
import { adapterFor } from '../routing/adapters';
import { ProviderCallError } from '../routing/adapters/types';
import { allowedByControls } from '../routing/catalog/controls';
import { ConfigFileError } from '../config/config-file';
import { isConfigured, loadCatalog, loadTeamControls, resolveProviderKey } from '../routing/catalog/load';
import type { Catalog, TeamControls } from '../routing/catalog/types';
import { modelFilePaths, modelEnv } from '../routing/config';
import { buildRouter } from '../routing/open-models';
import { parseEnv } from '../config/parse-env';
import { secretsConfig } from '../secrets/config';
import { createSecretStore, type SecretStore } from '../secrets/store';
import { missingCapability } from '../routing/resolve/requirements';
import { listScenarios, loadScenario } from '../scenarios/load';
import { CommandFailed } from './command-failed';
import { MODELS_USAGE } from './command-usage';

/** Where command output goes: stdout from the CLI, a collector in tests. */
export type Print = (line?: string) => void;

const stdout: Print = (line = '') => process.stdout.write(`${line}\n`);

async function loadBoth(env: NodeJS.ProcessEnv, overrides: { catalog?: string; controls?: string } = {}) {
  const paths = modelFilePaths(modelEnv.parse(env));
  const catalogPath = overrides.catalog ? path.resolve(overrides.catalog) : paths.catalog;
  const controlsPath = overrides.controls ? path.resolve(overrides.controls) : paths.controls;
  return {
    catalogPath,
    controlsPath,
    catalog: await loadCatalog(catalogPath),
    controls: await loadTeamControls(controlsPath),
  };
}

export async function runModelsCommand(args: string[], env: NodeJS.ProcessEnv, print: Print = stdout): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'list':
      return list(rest, env, print);
    case 'resolve':
      return resolve(rest, env, print);
    case 'check':
      return check(rest, env, print);
    case 'doctor':
      return doctor(rest, env, print);
    default:
      throw new CommandFailed(`unknown models command: ${args.join(' ')}\n${MODELS_USAGE}`);
  }
}

async function list(args: string[], env: NodeJS.ProcessEnv, print: Print): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean', default: false } } });
  const { catalog, controls } = await loadBoth(env);
  const queue = await createQueueStore({
    redisUrl: env.REDIS_URL || undefined,
    instanceId: env.KEEL_INSTANCE_ID || 'keel',
  });
  try {
    const rows = await (await buildRouter(catalog, controls, env, queue, () => undefined, secretsOf(env))).list();
    if (values.json) {
      print(JSON.stringify(rows, null, 2));
      return 0;
    }
    print('provider/model | tier | $ in/out per 1k | features | configured | allowed | free quota used (rpm, rpd)');
    for (const r of rows) {
      const quota = r.quota
        ? `${r.quota.rpm.used}/${r.quota.rpm.limit}, ${r.quota.rpd.used}/${r.quota.rpd.limit}`
        : '-';
      const cost = r.pricing_per_1k ? `${r.pricing_per_1k.input}/${r.pricing_per_1k.output}` : 'free';
      print(
        `${r.provider}/${r.model} | ${r.cost_tier} | ${cost} | ${r.features.join(',')} | ${r.configured ? 'yes' : 'no'} | ${r.allowed ? 'yes' : 'no'} | ${quota}`,
      );
    }
    return 0;
  } finally {
    await queue.close();
  }
}

async function resolve(args: string[], env: NodeJS.ProcessEnv, print: Print): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      role: { type: 'string' },
      budget: { type: 'string' },
      require: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
    },
  });
  if (!values.role) throw new CommandFailed('keel models resolve needs --role (e.g. L4.executor)');
  const { catalog, controls } = await loadBoth(env);
  const queue = await createQueueStore({ instanceId: 'keel-cli' });
  try {
    const router = await buildRouter(catalog, controls, env, queue, () => undefined, secretsOf(env));
    const decision = router.resolve({
      role: values.role,
      budget: values.budget,
      requirements: values.require,
    });
    if (values.json) {
      print(JSON.stringify(decision, null, 2));
      return 0;
    }
    print(
      `band: ${decision.band ? decision.band.join(' > ') : '(none)'}${decision.bandDropped ? ' — dropped: nothing survived it' : ''}`,
    );
    if (decision.offline) print('no configured provider serves this level: the offline demo model stands in');
    decision.candidates.forEach((c, i) =>
      print(`${i + 1}. ${c.provider}/${c.model}  tier=${c.tier}  effort=${c.effort ?? 'none'}  (${c.source})`),
    );
    for (const note of decision.notes) print(`note: ${note}`);
    return 0;
  } finally {
    await queue.close();
  }
}

async function check(args: string[], env: NodeJS.ProcessEnv, print: Print): Promise<number> {
  const { values } = parseArgs({ args, options: { catalog: { type: 'string' }, controls: { type: 'string' } } });
  try {
    const { catalog, controls, catalogPath, controlsPath } = await loadBoth(env, values);
    const providers = Object.keys(catalog.providers);
    const allowed = providers.filter((p) => controls.providers[p]);
    print(`ok: ${catalogPath}: ${providers.length} providers, ${catalog.models.length} models`);
    print(`ok: ${controlsPath}: ${allowed.length} of them permitted (${allowed.join(', ')})`);
    return 0;
  } catch (err) {
    if (err instanceof ConfigFileError) {
      print(err.message);
      return 1;
    }
    throw err;
  }
}

/**
 * Walks the spec's diagnosis order for one provider and stops at the first failing step:
 * catalog loaded → configured (credentials) → allowed by team controls → a model with each feature the
 * levels require → account funded (one cheap live call).
 */
async function doctor(args: string[], env: NodeJS.ProcessEnv, print: Print): Promise<number> {
  const name = args[0];
  if (!name) throw new CommandFailed('keel models doctor needs a provider name');
  const step = (n: number, ok: boolean, text: string) => print(`${ok ? '✓' : '✗'} ${n}. ${text}`);

  let catalog: Catalog;
  let controls: TeamControls;
  try {
    const loaded = await loadBoth(env);
    ({ catalog, controls } = loaded);
    step(1, true, `catalog loaded from ${loaded.catalogPath}`);
  } catch (err) {
    step(1, false, `catalog or team controls did not load: ${(err as Error).message}`);
    return 1;
  }
  const entry = catalog.providers[name];
  if (!entry) {
    step(1, false, `provider ${name} is not in the catalog (known: ${Object.keys(catalog.providers).join(', ')})`);
    return 1;
  }
  const rows = catalog.models.filter((m) => m.provider === name);
  const secrets = secretsOf(env);
  const key = await resolveProviderKey(entry, env, secrets);
  if (!(await isConfigured(entry, env, secrets))) {
    const secretId = entry.auth?.secret_id;
    step(
      2,
      false,
      `not configured: set ${entry.auth?.env ?? 'its key'}${secretId ? ` or secret ${secretId} (${secrets.where(secretId)})` : ''}`,
    );
    return 1;
  }
  step(2, true, `configured (${entry.auth ? `key from ${key.source}` : 'no key needed'})`);
  const allowedRows = rows.filter((r) => allowedByControls(controls, name, r.model));
  if (allowedRows.length === 0) {
    step(
      3,
      false,
      controls.providers[name] ? `team controls permit none of ${name}'s models` : `${name} is not in team controls`,
    );
    return 1;
  }
  step(3, true, `permitted by team controls: ${allowedRows.map((r) => r.model).join(', ')}`);
  // Every LLM level of every shipped scenario; a level offered tools also needs tool use (code_generation).
  const levels = (await Promise.all((await listScenarios()).map((name) => loadScenario(name))))
    .flatMap((scenario) => scenario.levels)
    .filter((level) => !level.deterministic)
    .map((level) => ({
      role: level.role,
      requirements: [...new Set([...(level.requirements ?? []), ...(level.tools?.length ? ['code_generation'] : [])])],
    }));
  for (const level of levels) {
    for (const requirement of level.requirements) {
      const refusals = allowedRows.map((r) => missingCapability(r, requirement)).filter(Boolean);
      if (refusals.length === allowedRows.length) {
        step(4, false, `no permitted model can serve ${level.role}: ${refusals.join('; ')}`);
        return 1;
      }
    }
  }
  step(4, true, 'a permitted model declares every feature the levels require');
  const cheapest = [...allowedRows].sort(
    (a, b) =>
      (a.pricing_per_1k ? a.pricing_per_1k.input + a.pricing_per_1k.output : 0) -
      (b.pricing_per_1k ? b.pricing_per_1k.input + b.pricing_per_1k.output : 0),
  )[0]!;
  try {
    await adapterFor(entry.wire).call({
      providerName: name,
      provider: entry,
      model: { ...cheapest, max_output_tokens: Math.min(cheapest.max_output_tokens, 16) },
      apiKey: key.key,
      messages: [{ role: 'user', content: 'Reply with the word ok.' }],
      signal: AbortSignal.timeout(30_000),
    });
    step(5, true, `funded: ${name}/${cheapest.model} answered a one-line request`);
    return 0;
  } catch (err) {
    if (err instanceof ProviderCallError) {
      const why =
        err.kind === 'unfunded'
          ? 'the account is not funded (add credit or a payment method)'
          : err.kind === 'auth'
            ? 'the key was refused (401/403): check it is current and for this account'
            : `${err.kind}: ${err.message}`;
      step(5, false, `${name}/${cheapest.model}: ${why}`);
    } else {
      step(5, false, `${name}/${cheapest.model}: ${(err as Error).message}`);
    }
    return 1;
  }
}

/** The secrets store the environment configures (KEEL_SECRETS_DIR, …); a bad variable stops the command. */
function secretsOf(env: NodeJS.ProcessEnv): SecretStore {
  return createSecretStore(parseEnv(secretsConfig, env, 'keel models'));
}
