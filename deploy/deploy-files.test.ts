import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Copy, DockerfileParser } from 'dockerfile-ast';
import { validate as lintDockerfile } from 'dockerfile-utils';
import { parse as parseYaml } from 'yaml';
import { loadMigrateConfig, migrateEnv } from '../cli/migrate';
import { parseEnv } from '../config/parse-env';
import { unreadVariables, variablesRead } from '../config/variables-read';
import { loadConfig as loadConsoleConfig } from '../console/server/config';
import { loadConfig as loadApiConfig } from '../stack/api-config';
import { loadConfig as loadIdentityConfig, withSecrets as withIdentitySecrets } from '../stack/identity-service-config';
import { loadConfig as loadWorkerConfig } from '../stack/worker-config';

// No container runs on the machines that test Keel: these checks hold the deployment files to what can be known
// without one (syntax and schema by peer tools, non-root images, every process's environment accepted by its own
// config parser). deploy/check-helm.mjs does the same for the Helm chart in CI.
const root = path.resolve(__dirname, '..');
const dockerfileText = fs.readFileSync(path.join(__dirname, 'Dockerfile'), 'utf8');
const dockerfile = DockerfileParser.parse(dockerfileText);
const PROCESS_TARGETS = ['api', 'worker', 'identity', 'console', 'migrate'];

/** Stage name → { base, user, cmd }; `user` is inherited from the stage it is built FROM. */
function stages() {
  const found = new Map<string, { base: string; user?: string; cmd?: string[] }>();
  for (const [index, from] of dockerfile.getFROMs().entries()) {
    const name = from.getBuildStage() ?? `#${index}`;
    const base = from.getImageName() ?? '';
    const start = from.getRange().start.line;
    const end = dockerfile.getFROMs()[index + 1]?.getRange().start.line ?? Number.MAX_SAFE_INTEGER;
    const inStage = dockerfile
      .getInstructions()
      .filter((i) => i.getRange().start.line > start && i.getRange().start.line < end);
    const user =
      inStage
        .filter((i) => i.getKeyword() === 'USER')
        .at(-1)
        ?.getArgumentsContent() ?? found.get(base)?.user;
    const cmdInstruction = inStage.filter((i) => i.getKeyword() === 'CMD').at(-1);
    const cmd = cmdInstruction ? (JSON.parse(cmdInstruction.getArgumentsContent() ?? '[]') as string[]) : undefined;
    found.set(name, { base, user, cmd });
  }
  return found;
}

describe('deploy/Dockerfile', () => {
  test('has no problem a Dockerfile linter reports', () => {
    expect(lintDockerfile(dockerfileText)).toEqual([]);
  });

  test('builds one image per process, each running as the unprivileged node user a compiled entry point', () => {
    const byName = stages();
    for (const target of PROCESS_TARGETS) {
      const stage = byName.get(target);
      expect(stage).toBeDefined();
      expect(stage?.user).toBe('node');
      const [command, script] = stage?.cmd ?? [];
      expect(command).toBe('node');
      // dist/<path>.js is compiled from <path>.ts.
      const source = path.join(root, (script ?? '').replace(/^dist\//, '').replace(/\.js$/, '.ts'));
      expect(fs.existsSync(source)).toBe(true);
    }
  });

  test('copies into the runtime image only paths the build has', () => {
    const copies = dockerfile
      .getInstructions()
      .filter((i): i is Copy => i instanceof Copy && i.getFromFlag()?.getValue() === 'build');
    expect(copies.length).toBeGreaterThan(5);
    for (const copy of copies) {
      const source = (copy.getArguments()[0]?.getValue() ?? '').replace(/^\/app\/?/, '');
      const built = ['dist', 'node_modules'].includes(source);
      expect({ source, present: built || fs.existsSync(path.join(root, source)) }).toEqual({ source, present: true });
    }
  });
});

describe('deploy/compose.yaml', () => {
  const composeFile = path.join(__dirname, 'compose.yaml');

  test('passes the Compose linter (the compose-spec schema and its rules)', () => {
    const dclint = path.join(root, 'node_modules', '.bin', 'dclint');
    const report = JSON.parse(execFileSync(dclint, [composeFile, '-f', 'json'], { encoding: 'utf8' })) as {
      messages: { rule: string; message: string }[];
    }[];
    expect(report.flatMap((file) => file.messages.map((m) => `${m.rule}: ${m.message}`))).toEqual([]);
  });

  /** The environment compose would give `service`, with `${VAR:?…}` and `${VAR:-default}` filled from `values`. */
  function serviceEnv(service: string, values: Record<string, string>): NodeJS.ProcessEnv {
    const doc = parseYaml(fs.readFileSync(composeFile, 'utf8'), { merge: true }) as {
      services: Record<string, { environment?: Record<string, string | number> }>;
    };
    const env: NodeJS.ProcessEnv = {};
    for (const [name, raw] of Object.entries(doc.services[service]?.environment ?? {})) {
      env[name] = String(raw).replace(
        /\$\{(\w+)(?::([?-])([^}]*))?\}/g,
        (_m, variable: string, kind?: string, rest?: string) => {
          if (values[variable] !== undefined) return values[variable];
          if (kind === '-') return rest ?? '';
          throw new Error(`${service}: ${variable} is unset`);
        },
      );
    }
    return env;
  }

  const filled = {
    POSTGRES_PASSWORD: 'pw',
    AUTHLIB_SECRET: 'a'.repeat(48),
    CONSOLE_API_TOKEN: `keel_${'b'.repeat(40)}`,
    IDP_ID: 'google',
    IDP_CLIENT_ID: 'client',
    IDP_CLIENT_SECRET: 'secret',
    IDP_ISSUER_URL: 'https://accounts.google.com',
  };

  test("gives each Keel process an environment its own config parser accepts (as the image's defaults complete it)", async () => {
    // What the Dockerfile's ENV lines add to every container (DATA_DIR, WORKSPACE_DIR, listen addresses).
    const imageEnv = { DATA_DIR: '/data', WORKSPACE_DIR: '/data/workspaces' };
    await expect(
      loadApiConfig({ ...imageEnv, API_HOST: '0.0.0.0', ...serviceEnv('api', filled) }),
    ).resolves.toBeDefined();
    await expect(loadWorkerConfig({ ...imageEnv, ...serviceEnv('worker', filled) })).resolves.toBeDefined();
    expect(loadIdentityConfig({ ...imageEnv, HOST: '0.0.0.0', ...serviceEnv('identity', filled) })).toBeDefined();
    await expect(
      loadConsoleConfig({ ...imageEnv, CONSOLE_HOST: '0.0.0.0', ...serviceEnv('console', filled) }),
    ).resolves.toBeDefined();
    expect(parseEnv(migrateEnv, serviceEnv('migrate', filled), 'keel migrate')).toBeDefined();
  });

  test('hands no process a variable its config parser does not read (the console no database credentials)', async () => {
    const parsers: Record<string, (env: NodeJS.ProcessEnv) => unknown> = {
      api: loadApiConfig,
      worker: loadWorkerConfig,
      identity: loadIdentityConfig,
      console: loadConsoleConfig,
      migrate: loadMigrateConfig,
    };
    const unread: Record<string, string[]> = {};
    for (const [service, parse] of Object.entries(parsers)) {
      const env = serviceEnv(service, filled);
      const { read } = await variablesRead(env, parse);
      unread[service] = unreadVariables(env, read);
    }
    expect(unread).toEqual({ api: [], worker: [], identity: [], console: [], migrate: [] });
    expect(Object.keys(serviceEnv('console', filled)).filter((name) => /DSN|DATABASE/.test(name))).toEqual([]);
  });

  test('runs the identity service password-only when deploy/compose.env names no OIDC provider', async () => {
    const {
      IDP_ID: _id,
      IDP_CLIENT_ID: _client,
      IDP_CLIENT_SECRET: _secret,
      IDP_ISSUER_URL: _issuer,
      ...noIdp
    } = filled;
    const env = serviceEnv('identity', noIdp);
    expect([env.IDP_CLIENT_ID, env.IDP_ISSUER_URL]).toEqual(['', '']);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-compose-identity-'));
    try {
      fs.writeFileSync(path.join(dir, 'AUTHLIB_SECRET'), 'a'.repeat(48));
      const { env: settings } = await withIdentitySecrets(loadIdentityConfig({ ...env, KEEL_SECRETS_DIR: dir }));
      expect(settings.IDP_ISSUER_URL).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(serviceEnv('migrate', filled).CONSOLE_ORG_ID).toBe('dev');
  });

  test('hands the identity service its secrets as files of its secrets store, never as variables', () => {
    const doc = parseYaml(fs.readFileSync(composeFile, 'utf8'), { merge: true }) as {
      services: Record<string, { secrets?: string[] }>;
      secrets: Record<string, { environment?: string }>;
    };
    const env = serviceEnv('identity', filled);
    expect(env.KEEL_SECRETS_DIR).toBe('/run/secrets');
    expect([env.AUTHLIB_SECRET, env.IDP_CLIENT_SECRET]).toEqual([undefined, undefined]);
    expect(doc.services.identity?.secrets).toEqual(['AUTHLIB_SECRET', 'IDP_CLIENT_SECRET']);
    expect(doc.secrets).toEqual({
      AUTHLIB_SECRET: { environment: 'AUTHLIB_SECRET' },
      IDP_CLIENT_SECRET: { environment: 'IDP_CLIENT_SECRET' },
    });
  });
});
