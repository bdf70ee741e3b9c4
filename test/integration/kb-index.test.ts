import { createOfflineEmbedder, OFFLINE_IDENTITY } from '../../kb/embedders/offline';
import type { Embedder } from '../../kb/embedders/types';
import { indexAll, indexPaths } from '../../kb/indexer';
import { khIdFor } from '../../kb/kh-id';
import { reembedIndex } from '../../kb/reembed';
import { createKbFixture, hubDoc, type KbFixture } from './kb-fixture';
import { asAnswered } from './answered';

const DEPLOY = khIdFor('hub:guides/deploy.md');
const SLACK = khIdFor('slack:C1:2024-05-01');

const deployDoc = (rollback = 'Re-run the previous release with keel deploy --version.') =>
  hubDoc(
    { id: DEPLOY, sensitivity: 'internal', tags: ['ops'], title: 'Deploy guide' },
    [
      '# Deploy guide',
      '',
      'Keel deploys from the main branch.',
      '',
      '## Install',
      '',
      'Run the installer:',
      '',
      '```sh',
      'npm install',
      '```',
      '',
      '## Rollback',
      '',
      rollback,
      '',
    ].join('\n'),
  );

const slackDoc = hubDoc(
  { id: SLACK, sensitivity: 'partner', tags: ['chat'], source_url: 'https://chat.example/archives/C1' },
  '## 09:12 — release train\n\nThe release train leaves at noon.\n',
);

let kb: KbFixture;

beforeAll(async () => {
  kb = await createKbFixture();
});

afterAll(async () => {
  await kb.close();
});

async function chunkRows() {
  const { rows } = await kb.index.query<{
    chunk_id: string;
    kh_id: string;
    heading: string;
    start_line: number;
    end_line: number;
    xmin: string;
    embedding_model: string;
  }>(
    'SELECT chunk_id, kh_id, heading, start_line, end_line, xmin::text, embedding_model FROM kb_chunks ORDER BY kh_id, ordinal',
  );
  return rows;
}

describe('the indexing interface', () => {
  it('indexes a small hub with chunk boundaries at headings and line numbers into the files', async () => {
    await kb.put('guides/deploy.md', deployDoc());
    await kb.put('sources/slack/releases/2024-05-01.md', slackDoc);
    const results = await indexPaths(kb.hub, ['guides/deploy.md', 'sources/slack/releases/2024-05-01.md']);
    expect(results).toEqual([
      { path: 'guides/deploy.md', status: 'indexed', kh_id: DEPLOY, chunks: 3, embedded: 3 },
      { path: 'sources/slack/releases/2024-05-01.md', status: 'indexed', kh_id: SLACK, chunks: 1, embedded: 1 },
    ]);
    const byDoc = (id: string) =>
      chunkRows().then((rows) =>
        rows.filter((r) => r.kh_id === id).map((r) => [r.heading, r.start_line, r.end_line] as const),
      );
    // The frontmatter takes lines 1–6, so the body's line 3 is the file's line 9.
    expect(await byDoc(DEPLOY)).toEqual([
      ['Deploy guide', 9, 9],
      ['Deploy guide > Install', 13, 17],
      ['Deploy guide > Rollback', 21, 21],
    ]);
    expect(await byDoc(SLACK)).toEqual([['09:12 — release train', 9, 9]]);
    const { rows: docs } = await kb.index.query(
      'SELECT kh_id, path, title, sensitivity, tags, source, source_url FROM kb_documents ORDER BY path',
    );
    expect(docs).toEqual([
      {
        kh_id: DEPLOY,
        path: 'guides/deploy.md',
        title: 'Deploy guide',
        sensitivity: 'internal',
        tags: ['ops'],
        source: 'hub',
        source_url: null,
      },
      {
        kh_id: SLACK,
        path: 'sources/slack/releases/2024-05-01.md',
        title: '2024-05-01',
        sensitivity: 'partner',
        tags: ['chat'],
        source: 'slack',
        source_url: 'https://chat.example/archives/C1',
      },
    ]);
    expect(new Set((await chunkRows()).map((r) => r.embedding_model))).toEqual(new Set([OFFLINE_IDENTITY.model]));
  });

  it('re-indexing unchanged content writes nothing', async () => {
    const before = await chunkRows();
    const { rows: docsBefore } = await kb.index.query('SELECT kh_id, xmin::text FROM kb_documents ORDER BY kh_id');
    const results = await indexPaths(kb.hub, ['guides/deploy.md', 'sources/slack/releases/2024-05-01.md']);
    expect(results.map((r) => r.status)).toEqual(['unchanged', 'unchanged']);
    expect(await chunkRows()).toEqual(before);
    const { rows: docsAfter } = await kb.index.query('SELECT kh_id, xmin::text FROM kb_documents ORDER BY kh_id');
    expect(docsAfter).toEqual(docsBefore);
  });

  it('an edit to one section re-embeds only that section and keeps the other chunks as they were', async () => {
    const before = await chunkRows();
    await kb.put('guides/deploy.md', deployDoc('Roll back with keel deploy --previous.'));
    const [result] = await indexPaths(kb.hub, ['guides/deploy.md']);
    expect(result).toEqual({ path: 'guides/deploy.md', status: 'indexed', kh_id: DEPLOY, chunks: 3, embedded: 1 });
    const after = await chunkRows();
    const unchanged = before.filter((r) => r.heading !== 'Deploy guide > Rollback');
    for (const row of unchanged) expect(after).toContainEqual(row);
    const rollbackBefore = before.find((r) => r.heading === 'Deploy guide > Rollback')!;
    const rollbackAfter = after.find((r) => r.heading === 'Deploy guide > Rollback')!;
    expect(rollbackAfter.chunk_id).not.toBe(rollbackBefore.chunk_id);
  });

  it('deleting a file removes its document and chunks', async () => {
    await kb.remove('sources/slack/releases/2024-05-01.md');
    const results = await indexPaths(kb.hub, ['sources/slack/releases/2024-05-01.md', 'never/there.md']);
    expect(results).toEqual([
      { path: 'sources/slack/releases/2024-05-01.md', status: 'deleted', kh_id: SLACK },
      { path: 'never/there.md', status: 'absent' },
    ]);
    expect((await chunkRows()).filter((r) => r.kh_id === SLACK)).toEqual([]);
    const { rowCount } = await kb.index.query('SELECT 1 FROM kb_documents WHERE kh_id = $1', [SLACK]);
    expect(rowCount).toBe(0);
  });

  it('reports an invalid file or path and still indexes the others, leaving the invalid one as it was', async () => {
    const before = await chunkRows();
    await kb.put('guides/deploy.md', '# no frontmatter any more\n');
    await kb.put('notes/ok.md', hubDoc({ id: khIdFor('hub:notes/ok.md'), sensitivity: 'public' }, 'Fine.\n'));
    const results = await indexPaths(kb.hub, ['guides/deploy.md', '../escape.md', 'notes/ok.md']);
    expect(results[0]).toMatchObject({
      path: 'guides/deploy.md',
      status: 'invalid',
      error: expect.stringMatching(/frontmatter/) as string,
    });
    expect(results[1]).toMatchObject({ path: '../escape.md', status: 'invalid' });
    expect(results[2]).toMatchObject({ path: 'notes/ok.md', status: 'indexed', chunks: 1 });
    expect((await chunkRows()).filter((r) => r.kh_id === DEPLOY)).toEqual(before.filter((r) => r.kh_id === DEPLOY));
    await kb.put('guides/deploy.md', deployDoc());
  });

  it('refuses a second file claiming an id that another existing file holds', async () => {
    await kb.put('guides/copy.md', deployDoc());
    const [result] = await indexPaths(kb.hub, ['guides/copy.md']);
    expect(result).toEqual({
      path: 'guides/copy.md',
      status: 'invalid',
      error: `id ${DEPLOY} already belongs to guides/deploy.md`,
    });
    await kb.remove('guides/copy.md');
  });

  it('indexAll resynchronises the whole directory: new files in, vanished files out', async () => {
    await kb.put('notes/new.md', hubDoc({ id: khIdFor('hub:notes/new.md'), sensitivity: 'public' }, 'New.\n'));
    await kb.remove('notes/ok.md');
    const results = await indexAll(kb.hub);
    expect(results.filter((r) => r.status !== 'unchanged')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'notes/new.md', status: 'indexed' }),
        expect.objectContaining({ path: 'notes/ok.md', status: 'deleted' }),
      ]),
    );
  });
});

describe('the re-embed guard', () => {
  /** The offline embedder under another model name: a switch of embedder with the same dimensions. */
  const renamed: Embedder = {
    identity: () => Promise.resolve({ provider: 'local', model: 'other-model', dims: OFFLINE_IDENTITY.dims }),
    embed: (texts, purpose) => createOfflineEmbedder().embed(texts, purpose),
  };

  it('refuses another embedder while the index holds vectors, until reembed rebuilds them', async () => {
    const switched = await kb.reopen(renamed);
    await expect(asAnswered(switched.ready())).rejects.toMatchObject({
      statusCode: 409,
      code: 'reembed_required',
      message: expect.stringMatching(
        /offline\/keel-lexical-hash-v1 .*local\/other-model.*npx keel kb reembed/,
      ) as string,
    });
    await expect(indexPaths(switched, ['guides/deploy.md'])).rejects.toMatchObject({ code: 'reembed_required' });

    const done = await reembedIndex(switched);
    expect(done.reembedded).toBe((await chunkRows()).length);
    expect(new Set((await chunkRows()).map((r) => r.embedding_model))).toEqual(new Set(['other-model']));
    await expect(switched.ready()).resolves.toEqual({ provider: 'local', model: 'other-model', dims: 256 });
    // Now the original embedder is the one refused.
    await expect(kb.hub.ready()).rejects.toMatchObject({ code: 'reembed_required' });
    await reembedIndex(kb.hub);
    await expect(kb.hub.ready()).resolves.toEqual(OFFLINE_IDENTITY);
  });
});
