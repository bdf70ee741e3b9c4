import { COMMON_TERM_CHUNKS, commonTerms } from '../../kb/common-terms';
import { OFFLINE_IDENTITY, offlineEmbed } from '../../kb/embedders/offline';
import { khIdFor } from '../../kb/kh-id';
import { CANDIDATES, textCandidates, type SearchScope } from '../../kb/search';
import { levelsUpTo } from '../../kb/sensitivity';
import { createKbFixture, type KbFixture } from './kb-fixture';

// The full-text half's common-word cutoff (docs/knowledge-hub.md, "Ranking"): a word in more than COMMON_TERM_CHUNKS
// chunks is left out of a query that has a rarer word, and kept in a query that has no other.
const DOC = khIdFor('hub:runbooks/rota.md');
const CHUNKS = COMMON_TERM_CHUNKS + 200;
const ZEBRA = [7, 400, 1100];

let kb: KbFixture;
const scope: SearchScope = { levels: levelsUpTo('internal'), org: null };

beforeAll(async () => {
  kb = await createKbFixture();
  await kb.hub.ready();
  await kb.index.query(
    `INSERT INTO kb_documents (kh_id, path, title, frontmatter, body, sensitivity, tags, source, content_hash)
     VALUES ($1, 'runbooks/rota.md', 'Rota', '{}', '', 'internal', '{}', 'hub', 'sha256:rota')`,
    [DOC],
  );
  // Every chunk says "rota"; three also say "zebra".
  const contents = Array.from(
    { length: CHUNKS },
    (_, i) => `## Shift ${i}\n\nrota shift${i}${ZEBRA.includes(i) ? ' zebra' : ''}`,
  );
  await kb.index.query(
    `INSERT INTO kb_chunks (chunk_id, kh_id, ordinal, heading, content, start_line, end_line, embedding, embedding_model, embedding_dims)
     SELECT $1 || ':' || u.i, $1, u.i, 'Shift', u.content, 1, 2, u.embedding::real[], $4, $5
     FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS u(content, embedding, i)`,
    [
      DOC,
      contents,
      contents.map((c) => `{${offlineEmbed(c).join(',')}}`),
      OFFLINE_IDENTITY.model,
      OFFLINE_IDENTITY.dims,
    ],
  );
  await kb.index.query('ANALYZE kb_chunks');
});

afterAll(async () => {
  await kb.close();
});

async function text(query: string): Promise<string[]> {
  // Read before taking a connection, as kb/search.ts does: an index pool of one (PGlite) has none left for it after.
  const common = await commonTerms(kb.index);
  const client = await kb.index.connect();
  try {
    const rows = await textCandidates(client, query, scope, common);
    return rows.map((r) => r.chunk_id);
  } finally {
    client.release();
  }
}

test('a word in most chunks is left out when the query has a rarer one', async () => {
  const ids = await text('rota zebra');
  expect(ids.sort()).toEqual(ZEBRA.map((i) => `${DOC}:${i + 1}`).sort());
});

test('a query of common words only still finds chunks holding them', async () => {
  await expect(text('rota')).resolves.toHaveLength(CANDIDATES);
});
