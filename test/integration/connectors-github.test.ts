import { secretsConfig } from '../../secrets/config';
import { createSecretStore } from '../../secrets/store';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connectorsConfig } from '../../connectors/settings';
import { runConnectorOnce } from '../../connectors/run-once';
import { readConnectorCursor, resetConnectorCursor } from '../../connectors/state-store';
import { khIdFor } from '../../kb/kh-id';
import { createGitHost, type GitHost } from './connectors-fixture';
import { createKbFixture, hubDoc, type KbFixture } from './kb-fixture';

let kb: KbFixture;
let host: GitHost;
let secretsDir: string;
let hubRepoUrl: string;

const POLICY = {
  owner: 'acme',
  repo: 'widgets',
  branch: 'main',
  include_globs: ['**'],
  exclude_globs: ['**/generated/**'],
  sensitivity: 'partner',
  tags: ['code'],
};

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  CONNECTOR_GITHUB_REPOS: JSON.stringify([POLICY]),
  CONNECTOR_GITHUB_MAX_FILE_BYTES: '2048',
  GITHUB_GIT_BASE_URL: host.baseUrl,
  KB_HUB_URL: hubRepoUrl,
  KEEL_SECRETS_DIR: secretsDir,
  ...extra,
});

function runGithub(extra: NodeJS.ProcessEnv = {}, log?: (line: string) => void) {
  const e = env(extra);
  return runConnectorOnce({
    name: 'github',
    config: connectorsConfig.parse(e),
    secrets: createSecretStore(secretsConfig.parse(e)),
    pool: kb.db.pool,
    index: { pool: kb.hub.pool, embedder: kb.hub.embedder },
    log,
  });
}

async function indexed() {
  const { rows } = await kb.index.query<{
    path: string;
    kh_id: string;
    sensitivity: string;
    frontmatter: Record<string, unknown>;
    source_url: string;
  }>(
    `SELECT path, kh_id, sensitivity, frontmatter, source_url FROM kb_documents WHERE path LIKE 'sources/github/%' ORDER BY path`,
  );
  return rows;
}

let firstSha: string;

beforeAll(async () => {
  kb = await createKbFixture();
  host = await createGitHost();
  secretsDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-secrets-'));
  // The curated hub the run clones: a repository of its own, with one curated document.
  await host.commit('hub', 'curated', {
    'guides/welcome.md': hubDoc({ id: khIdFor('hub:guides/welcome.md'), sensitivity: 'public' }, '# Welcome\n'),
  });
  hubRepoUrl = `${host.baseUrl}/hub/curated.git`;
  firstSha = await host.commit('acme', 'widgets', {
    'README.md': '# Widgets\n',
    '.github/workflows/ci.yml': 'on: push\n',
    'src/app.ts': 'export const answer = 42;\n',
    'src/generated/api.ts': 'export {};\n',
    'assets/big.txt': 'x'.repeat(4096),
    'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00]),
    Dockerfile: 'FROM node:20\n',
  });
});

afterAll(async () => {
  await kb.close();
  await host.close();
  await fs.rm(secretsDir, { recursive: true, force: true });
});

describe('the GitHub connector run', () => {
  it('copies the matching text files of a shallow clone into the index and stores the HEAD SHA', async () => {
    const report = await runGithub();
    const expected = [
      'sources/github/acme/widgets/.github/workflows/ci.yml.md',
      'sources/github/acme/widgets/Dockerfile.md',
      'sources/github/acme/widgets/README.md.md',
      'sources/github/acme/widgets/src/app.ts.md',
    ];
    expect([...report.written].sort()).toEqual(expected);
    expect(report.indexProblems).toEqual([]);
    const rows = await indexed();
    expect(rows.map((r) => r.path)).toEqual(expected);
    const app = rows.find((r) => r.path.endsWith('src/app.ts.md'))!;
    expect(app).toMatchObject({
      kh_id: khIdFor('github:acme/widgets:src/app.ts'),
      sensitivity: 'partner',
      source_url: `${host.baseUrl}/acme/widgets/blob/${firstSha}/src/app.ts`,
    });
    expect(app.frontmatter).toMatchObject({ tags: ['code'], source_id: 'github:acme/widgets:src/app.ts' });
    expect(await readConnectorCursor(kb.db.pool, 'github')).toEqual({ 'acme/widgets': firstSha });
    // The curated hub's own documents are the hub's business: the run only indexes what it wrote.
    const { rowCount } = await kb.index.query(`SELECT 1 FROM kb_documents WHERE path = 'guides/welcome.md'`);
    expect(rowCount).toBe(0);
  });

  it('skips the whole repository when HEAD is unchanged and writes nothing', async () => {
    const before = await indexed();
    const lines: string[] = [];
    const report = await runGithub({}, (line) => lines.push(line));
    expect(report).toMatchObject({ records: 0, written: [], unchanged: 0, steps: 1 });
    // The remote's head answered it: nothing was cloned.
    expect(lines.filter((line) => line.startsWith('github:'))).toEqual([
      `github: asking ${host.baseUrl}/acme/widgets.git for main`,
      `github: acme/widgets unchanged at ${firstSha.slice(0, 7)}, skipped`,
    ]);
    expect(await indexed()).toEqual(before);
    expect(await readConnectorCursor(kb.db.pool, 'github')).toEqual({ 'acme/widgets': firstSha });
  });

  it('writes nothing when every file still renders the same (a reset cursor re-reads idempotently)', async () => {
    await resetConnectorCursor(kb.db.pool, 'github');
    const report = await runGithub();
    expect(report).toMatchObject({ records: 4, written: [], unchanged: 4 });
  });

  it('rewrites a changed file with its id and created_at preserved', async () => {
    const before = (await indexed()).find((r) => r.path.endsWith('src/app.ts.md'))!;
    const sha = await host.commit('acme', 'widgets', { 'src/app.ts': 'export const answer = 43;\n' });
    const report = await runGithub();
    // Every record's body names the commit (link and commit line, per the spec), so a new HEAD rewrites them all.
    expect(report.written).toHaveLength(4);
    const after = (await indexed()).find((r) => r.path.endsWith('src/app.ts.md'))!;
    expect(after.frontmatter.id).toBe(before.frontmatter.id);
    expect(after.frontmatter.created_at).toBe(before.frontmatter.created_at);
    expect(after.frontmatter.commit).toBe(sha);
    expect(after.source_url).toContain(`/blob/${sha}/`);
    const { rows } = await kb.index.query<{ content: string }>('SELECT content FROM kb_chunks WHERE kh_id = $1', [
      after.kh_id,
    ]);
    expect(rows.map((r) => r.content).join('\n')).toContain('answer = 43');
    expect(await readConnectorCursor(kb.db.pool, 'github')).toEqual({ 'acme/widgets': sha });
  });

  it('reads the token from the secrets store and never shows it in errors or logs', async () => {
    await fs.writeFile(path.join(secretsDir, 'github-token'), 'ghp_topsecret123\n');
    const lines: string[] = [];
    const failing = runGithub(
      {
        CONNECTOR_GITHUB_AUTH_SECRET_ID: 'github-token',
        // Loopback port 9 (discard): refused at once, so git reports the address it tried.
        GITHUB_GIT_BASE_URL: 'http://127.0.0.1:9',
      },
      (line) => lines.push(line),
    );
    // With a cursor from the runs above, the first git command is the remote-head check; without one, the clone.
    await expect(failing).rejects.toThrow(/git (ls-remote|clone) failed/);
    const message = await failing.catch((err: Error) => err.message);
    expect(message).not.toContain('ghp_topsecret123');
    expect(lines.join('\n')).not.toContain('ghp_topsecret123');
    expect(lines.join('\n')).toContain('http://127.0.0.1:9/acme/widgets.git');
  });
});
