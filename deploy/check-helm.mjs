#!/usr/bin/env node
// Checks the Helm chart without a cluster (none runs on the machines that test Keel): `helm lint`, then
// `helm template` with deploy/helm/example-values.yaml, each rendered object validated against the Kubernetes
// schemas (kubernetes-models), and each process's environment (ConfigMap + Secret + its own) accepted by that
// process's own config parser from dist/ (run after `npm run build`), with no variable the process does not read
// (config/variables-read.ts: the console must not be handed the database's credentials). helm comes from HELM_PATH, PATH, or is built
// once from its Go module into the per-user cache, as the Temporal CLI is.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const HELM_MODULE = 'helm.sh/helm/v3/cmd/helm@v3.22.0';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const chart = path.join(root, 'deploy', 'helm', 'keel');
const values = path.join(root, 'deploy', 'helm', 'example-values.yaml');
const require = createRequire(import.meta.url);
const { variablesRead, unreadVariables } = require(path.join(root, 'dist/config/variables-read.js'));

function log(message) {
  process.stderr.write(`[check-helm] ${message}\n`);
}

function findHelm() {
  if (process.env.HELM_PATH) return process.env.HELM_PATH;
  const onPath = spawnSync('sh', ['-c', 'command -v helm'], { encoding: 'utf8' });
  if (onPath.status === 0) return onPath.stdout.trim();
  const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const cached = path.join(cacheHome, 'keel', 'helm', HELM_MODULE.split('@')[1], 'helm');
  if (fs.existsSync(cached)) return cached;
  log(`building helm: go install ${HELM_MODULE} (minutes, once per machine)`);
  execFileSync('go', ['install', '-trimpath', '-ldflags=-s -w', HELM_MODULE], {
    stdio: 'inherit',
    env: { ...process.env, GOBIN: path.dirname(cached), GOFLAGS: '-mod=mod' },
  });
  return cached;
}

/** kubernetes-models' class for an object, e.g. apps/v1 Deployment → kubernetes-models/apps/v1 Deployment. */
async function modelFor({ apiVersion, kind }) {
  const module = await import(`kubernetes-models/${apiVersion}`);
  if (!module[kind]) throw new Error(`no schema for ${apiVersion} ${kind}`);
  return module[kind];
}

/** Each process's config parser in dist/, by the container name the chart gives it. */
const parsers = {
  api: (env) => require(path.join(root, 'dist/stack/api-config.js')).loadConfig(env),
  worker: (env) => require(path.join(root, 'dist/stack/worker-config.js')).loadConfig(env),
  // The identity service's secrets are files of its secrets store (docs/secrets.md), read at its start: checked too.
  identity: (env) => {
    const config = require(path.join(root, 'dist/stack/identity-service-config.js'));
    return config.withSecrets(config.loadConfig(env));
  },
  console: (env) => require(path.join(root, 'dist/console/server/config.js')).loadConfig(env),
  migrate: (env) => require(path.join(root, 'dist/cli/migrate.js')).loadMigrateConfig(env),
};

/** What the image sets for every process (deploy/Dockerfile's ENV lines): not the chart's to leave out. */
const IMAGE_ENV = { DATA_DIR: '/data' };

/** The environment a container gets: its envFrom ConfigMaps and Secrets, then its own env, as Kubernetes does. */
function containerEnv(container, byName) {
  const env = {};
  for (const source of container.envFrom ?? []) {
    const ref = source.configMapRef ?? source.secretRef;
    const object = byName.get(`${source.configMapRef ? 'ConfigMap' : 'Secret'}/${ref.name}`);
    if (!object) throw new Error(`${container.name}: envFrom names ${ref.name}, which the chart does not render`);
    Object.assign(env, object.data ?? {}, object.stringData ?? {});
  }
  for (const { name, value, valueFrom } of container.env ?? []) {
    env[name] = valueFrom?.secretKeyRef ? secretKeyValue(valueFrom.secretKeyRef, byName) : value;
  }
  // What the image sets (deploy/Dockerfile's ENV lines).
  return { ...IMAGE_ENV, ...env };
}

/**
 * The chart's secrets directory as the container sees it: the keys of the Secret volume mounted at KEEL_SECRETS_DIR,
 * written as files into a temporary directory, which then stands in for KEEL_SECRETS_DIR.
 */
function mountedSecretsDir(container, podSpec, env, byName) {
  if (!env.KEEL_SECRETS_DIR) return undefined;
  const mount = (container.volumeMounts ?? []).find((m) => m.mountPath === env.KEEL_SECRETS_DIR);
  const volume = mount && (podSpec.volumes ?? []).find((v) => v.name === mount.name);
  // A Secret volume, or a projected one over several Secrets (the API's: provider keys and its internal token).
  const names = volume?.secret
    ? [volume.secret.secretName]
    : (volume?.projected?.sources ?? []).filter((source) => source.secret).map((source) => source.secret.name);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-check-helm-'));
  for (const name of names) {
    const secret = byName.get(`Secret/${name}`);
    for (const [key, value] of Object.entries(secret?.stringData ?? {})) fs.writeFileSync(path.join(dir, key), value);
    for (const [key, value] of Object.entries(secret?.data ?? {})) {
      fs.writeFileSync(path.join(dir, key), Buffer.from(value, 'base64'));
    }
  }
  return dir;
}

/** The value of a `valueFrom.secretKeyRef` variable, from the Secret the chart renders. */
function secretKeyValue(ref, byName) {
  const secret = byName.get(`Secret/${ref.name}`);
  if (!secret) throw new Error(`secretKeyRef names ${ref.name}, which the chart does not render`);
  const value =
    secret.stringData?.[ref.key] ?? (secret.data?.[ref.key] && Buffer.from(secret.data[ref.key], 'base64').toString());
  if (value === undefined) throw new Error(`secretKeyRef: ${ref.name} has no key ${ref.key}`);
  return value;
}

async function main() {
  const helm = findHelm();
  execFileSync(helm, ['lint', '--strict', chart, '-f', values], { stdio: 'inherit' });
  const rendered = execFileSync(helm, ['template', 'keel', chart, '-f', values], { encoding: 'utf8' });
  const objects = parseAllDocuments(rendered)
    .map((doc) => doc.toJS())
    .filter(Boolean);
  const byName = new Map(
    objects.filter((o) => ['ConfigMap', 'Secret'].includes(o.kind)).map((o) => [`${o.kind}/${o.metadata.name}`, o]),
  );
  const problems = [];
  for (const object of objects) {
    try {
      new (await modelFor(object))(object).validate();
    } catch (err) {
      problems.push(`${object.kind} ${object.metadata?.name}: ${err.message}`);
    }
  }
  const workloads = objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job');
  for (const workload of workloads) {
    for (const container of workload.spec.template.spec.containers) {
      const parse = parsers[container.name];
      if (!parse) {
        problems.push(`${workload.kind} ${workload.metadata.name}: no config parser for container ${container.name}`);
        continue;
      }
      const env = containerEnv(container, byName);
      const secretsDir = mountedSecretsDir(container, workload.spec.template.spec, env, byName);
      try {
        const { read } = await variablesRead(secretsDir ? { ...env, KEEL_SECRETS_DIR: secretsDir } : env, parse);
        for (const name of unreadVariables(env, read, Object.keys(IMAGE_ENV))) {
          problems.push(
            `${workload.kind} ${workload.metadata.name}: receives ${name}, which ${container.name} does not read`,
          );
        }
      } catch (err) {
        problems.push(`${workload.kind} ${workload.metadata.name}: ${err.message}`);
      } finally {
        if (secretsDir) fs.rmSync(secretsDir, { recursive: true, force: true });
      }
    }
  }
  const kinds = objects.map((o) => o.kind).sort();
  log(
    `${objects.length} objects rendered (${[...new Set(kinds)].map((k) => `${kinds.filter((x) => x === k).length} ${k}`).join(', ')})`,
  );
  log(
    `${workloads.length} workloads' environments (and mounted secrets stores) checked against their processes' config parsers`,
  );
  if (problems.length > 0) {
    for (const problem of problems) log(`problem: ${problem}`);
    process.exit(1);
  }
  log('chart OK');
}

await main();
