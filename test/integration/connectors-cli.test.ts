import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { readConnectorCursor } from '../../connectors/state-store';
import { khIdFor } from '../../kb/kh-id';
import { createGitHost, type GitHost } from './connectors-fixture';
import { testPostgresDsn } from './env';
import { createKbFixture, hubDoc, type KbFixture } from './kb-fixture';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..', '..');

let kb: KbFixture;
let host: GitHost;
let dataDir: string;

beforeAll(async () => {
  kb = await createKbFixture();
  host = await createGitHost();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-cli-data-'));
  await host.commit('hub', 'curated', {
    'guides/welcome.md': hubDoc({ id: khIdFor('hub:guides/welcome.md'), sensitivity: 'public' }, '# Welcome\n'),
  });
});

afterAll(async () => {
  await kb.close();
  await host.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** `keel connector …` as a user runs it, in a child process with only the variables given here. */
function keel(args: string[], extra: NodeJS.ProcessEnv) {
  return run(process.execPath, [path.join(ROOT, 'test/integration/ts-entry.js'), 'cli/keel.ts', 'connector', ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      POSTGRES_DSN: testPostgresDsn,
      POSTGRES_SCHEMA: kb.db.schema,
      ...kb.indexEnv,
      DATA_DIR: dataDir,
      KB_HUB_URL: `${host.baseUrl}/hub/curated.git`,
      GITHUB_GIT_BASE_URL: host.baseUrl,
      ...extra,
    },
  });
}

describe('keel connector run', () => {
  it('writes and indexes the changed records, and a second run writes nothing', async () => {
    const sha = await host.commit('acme', 'cli', { 'docs/intro.md': '# Intro\n', 'src/main.py': 'print("hi")\n' });
    const repos = JSON.stringify([{ owner: 'acme', repo: 'cli', sensitivity: 'internal', include_globs: ['src/**'] }]);
    const first = await keel(['run', '--connector', 'github'], { CONNECTOR_GITHUB_REPOS: repos });
    expect(first.stdout).toContain('written    sources/github/acme/cli/src/main.py.md');
    expect(first.stdout).toContain('github: 1 records, 1 written, 0 unchanged');
    expect(await readConnectorCursor(kb.db.pool, 'github')).toEqual({ 'acme/cli': sha });
    const { rows } = await kb.index.query<{ path: string }>('SELECT path FROM kb_documents');
    expect(rows.map((r) => r.path)).toEqual(['sources/github/acme/cli/src/main.py.md']);

    const second = await keel(['run', '--connector', 'github'], { CONNECTOR_GITHUB_REPOS: repos });
    expect(second.stdout).toContain('github: 0 records, 0 written, 0 unchanged');
  });

  it('refuses an unknown connector and a bad variable with exit code 2 and the reason', async () => {
    await expect(keel(['run', '--connector', 'jira'], {})).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('a connector is one of notion, slack, github') as unknown,
    });
    await expect(
      keel(['run', '--connector', 'github'], { CONNECTOR_GITHUB_SCHEDULE: 'every hour' }),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('CONNECTOR_GITHUB_SCHEDULE') as unknown });
  });
});
