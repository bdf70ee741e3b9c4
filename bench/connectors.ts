// bench/connectors: the connectors over real parts (git, the run loop, the writer, the real indexing interface into
// PostgreSQL with the offline embedder). GitHub: files/s of a first run over a generated repository; then a no-change
// re-run (HEAD unchanged: the repository is skipped) and a re-read with the cursor reset (every file rendered and
// compared, nothing written), each timed against the first run, in the same process.
//
// Needs git and PostgreSQL with pgvector (BENCH_POSTGRES_DSN; a throwaway schema, dropped at the end).
//   node dist/bench/connectors.js [--files=2000]
//
// Hook for the Notion and Slack measures: `bench/connectors-notion-slack.ts`, when present, exports
// `runNotionSlackBench(context: ConnectorBenchContext): Promise<void>`, run after the GitHub measures with the same
// database and index (its own connector names keep their own cursors).
import { noSecrets } from '../secrets/store';
import { execFileSync } from 'node:child_process';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { connectorsConfig } from '../connectors/settings';
import { runConnectorOnce, type RunReport } from '../connectors/run-once';
import { resetConnectorCursor } from '../connectors/state-store';
import { migrate } from '../db/migrate';
import { createPool } from '../db/pool';
import { kbEnv } from '../kb/config';
import { openKnowledgeHub, type KnowledgeHub } from '../kb/hub';
import { param, printJson } from './measure';
import { runBench } from './run-bench';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';

/** What the Notion/Slack measures get from this benchmark. */
export interface ConnectorBenchContext {
  pool: Pool;
  hub: KnowledgeHub;
  /** Prints one result line in this benchmark's format. */
  report(name: string, value: string): void;
}

const figures: Record<string, string> = {};

function report(name: string, value: string): void {
  console.log(`${name.padEnd(44)} ${value}`);
  figures[name] = value;
}

/** A repository of `files` source files (~2 KB each, spread over nested directories), committed once. */
function generateRepository(dir: string, files: number): void {
  const lines = Array.from({ length: 60 }, (_, i) => `export const value${i} = ${i} * factor; // line ${i}`);
  for (let i = 0; i < files; i += 1) {
    const file = path.join(dir, `pkg${i % 20}`, `mod${i % 7}`, `file${i}.ts`);
    fsSync.mkdirSync(path.dirname(file), { recursive: true });
    fsSync.writeFileSync(file, `// file ${i}\nconst factor = ${i};\n${lines.join('\n')}\n`);
  }
  const git = (args: string[]) =>
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@keel.invalid', ...args], { cwd: dir });
  git(['init', '--quiet', '-b', 'main']);
  git(['add', '-A']);
  git(['commit', '--quiet', '-m', 'bench']);
}

/**
 * Loads the Notion/Slack measures (another engineer's file, hence a computed require) after the GitHub measures. The
 * file either exports `runNotionSlackBench` (run here with this benchmark's database and
 * index) or is a script of its own whose `main` starts when it is loaded; both are supported.
 */
async function runNotionSlackMeasures(context: ConnectorBenchContext): Promise<void> {
  let hook: { runNotionSlackBench?: (context: ConnectorBenchContext) => Promise<void> };
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    hook = require(path.join(__dirname, 'connectors-notion-slack')) as typeof hook;
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND';
    if (missing && (err as Error).message.includes('connectors-notion-slack')) {
      console.log('(no bench/connectors-notion-slack: Notion and Slack measures skipped)');
      return;
    }
    throw err;
  }
  if (hook.runNotionSlackBench) await hook.runNotionSlackBench(context);
}

async function main(): Promise<void> {
  const files = param('files', 2000);
  const schema = `bench_conn_${Date.now().toString(36)}`;
  const pool = createPool({ dsn: POSTGRES_DSN, max: 4, ssl: false, schema });
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-bench-connectors-'));
  try {
    await migrate(pool, schema);
    const hub = await openKnowledgeHub({ pool, schema, hubDir: path.join(root, 'hub'), env: kbEnv.parse({}) });
    if (hub.unavailable) throw new Error(hub.unavailable);
    await hub.ready();

    console.log(`generating a repository of ${files} files…`);
    const repoDir = path.join(root, 'git', 'bench', 'repo.git');
    await fs.mkdir(repoDir, { recursive: true });
    generateRepository(repoDir, files);

    const env: NodeJS.ProcessEnv = {
      CONNECTOR_GITHUB_REPOS: JSON.stringify([{ owner: 'bench', repo: 'repo', sensitivity: 'internal' }]),
      GITHUB_GIT_BASE_URL: `file://${path.join(root, 'git')}`,
      CONNECTOR_FLUSH_EVERY: '100',
    };
    const runGithub = async (): Promise<{ ms: number; result: RunReport }> => {
      const started = performance.now();
      const result = await runConnectorOnce({
        name: 'github',
        config: connectorsConfig.parse(env),
        secrets: noSecrets,
        pool,
        index: { pool: hub.pool, embedder: hub.embedder },
      });
      return { ms: performance.now() - started, result };
    };

    const first = await runGithub();
    report('github first run: files written', `${first.result.written.length}`);
    report('github first run: time', `${first.ms.toFixed(0)} ms`);
    report('github first run: files/s', `${((first.result.records / first.ms) * 1000).toFixed(1)}`);
    const same = await runGithub();
    report('github no-change re-run (HEAD unchanged): time', `${same.ms.toFixed(0)} ms`);
    report('github no-change re-run: written', `${same.result.written.length}`);
    report('github no-change re-run / first run', `${((same.ms / first.ms) * 100).toFixed(1)} %`);
    await resetConnectorCursor(pool, 'github');
    const reread = await runGithub();
    report('github re-read, cursor reset: time', `${reread.ms.toFixed(0)} ms`);
    report('github re-read: written / unchanged', `${reread.result.written.length} / ${reread.result.unchanged}`);
    report('github re-read / first run', `${((reread.ms / first.ms) * 100).toFixed(1)} %`);

    await runNotionSlackMeasures({ pool, hub, report });
    printJson('connectors', figures);
    await hub.close();
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await pool.end();
    await fs.rm(root, { recursive: true, force: true });
  }
}

runBench(main);
