import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { indexPaths } from '../../kb/indexer';
import { khIdFor } from '../../kb/kh-id';
import { createKbFixture, hubDoc, startKbApi, type KbFixture } from './kb-fixture';

const ROOT = path.resolve(__dirname, '..', '..');
const GUIDE = khIdFor('hub:guides/backup.md');
const SECRET = khIdFor('hub:secrets/backup-key.md');

let kb: KbFixture;
let api: Awaited<ReturnType<typeof startKbApi>>;
let dataDir: string;

/** `npx keel kb-mcp` as an MCP client launches it: a child process speaking MCP on stdio. */
async function connect(token: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(__dirname, 'ts-entry.js'), path.join(ROOT, 'cli', 'keel.ts'), 'kb-mcp'],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', KEEL_API_URL: api.baseUrl, KEEL_TOKEN: token, DATA_DIR: dataDir },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'keel-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text: string }[]).map((c) => c.text).join('');

beforeAll(async () => {
  kb = await createKbFixture();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-mcp-'));
  await kb.put(
    'guides/backup.md',
    hubDoc(
      { id: GUIDE, sensitivity: 'internal', tags: ['ops'] },
      '# Backups\n\nNightly backups land in the cold vault bucket.\n',
    ),
  );
  await kb.put(
    'secrets/backup-key.md',
    hubDoc({ id: SECRET, sensitivity: 'secret' }, '# Backup key\n\nvault key 99.\n'),
  );
  await indexPaths(kb.hub, ['guides/backup.md', 'secrets/backup-key.md']);
  api = await startKbApi(kb);
});

afterAll(async () => {
  await api.close();
  await kb.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('keel kb-mcp, driven by the MCP SDK client over stdio', () => {
  it('offers the read-only tools kb_query and kb_doc, which answer from the configured Keel', async () => {
    const client = await connect(await api.token('internal'));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['kb_doc', 'kb_query']);
      for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);

      const query = await client.callTool({
        name: 'kb_query',
        arguments: { query: 'where do nightly backups land', k: 3 },
      });
      expect(query.isError).toBeFalsy();
      const { results } = JSON.parse(textOf(query)) as { results: { kh_id: string; snippet: string }[] };
      expect(results[0]).toMatchObject({ kh_id: GUIDE, snippet: 'Nightly backups land in the cold vault bucket.' });
      expect(results.map((r) => r.kh_id)).not.toContain(SECRET);

      const doc = await client.callTool({ name: 'kb_doc', arguments: { kh_id: GUIDE } });
      expect(JSON.parse(textOf(doc)) as unknown).toMatchObject({
        kh_id: GUIDE,
        markdown: expect.stringContaining('cold vault') as string,
      });

      const hidden = await client.callTool({ name: 'kb_doc', arguments: { kh_id: SECRET } });
      expect(hidden.isError).toBe(true);
      expect(textOf(hidden)).toMatch(/Keel answered 404 \(not_found: document kh-\w+ not found\)/);

      const malformed = await client.callTool({ name: 'kb_doc', arguments: { kh_id: 'not-an-id' } });
      expect(malformed.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('passes an API refusal on as a tool error', async () => {
    const client = await connect('keel_not-a-real-token');
    try {
      const result = await client.callTool({ name: 'kb_query', arguments: { query: 'backups' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/Keel answered 401 \(unauthorized: invalid or revoked API token\)/);
    } finally {
      await client.close();
    }
  });
});
