import { knowledgeActivities } from '../../activities/knowledge';
import { indexPaths } from '../../kb/indexer';
import { khIdFor } from '../../kb/kh-id';
import { loadScenario } from '../../scenarios/load';
import { TOOL_DEFINITIONS } from '../../workflows/tools';
import { createKbFixture, hubDoc, type KbFixture } from './kb-fixture';

let kb: KbFixture;

beforeAll(async () => {
  kb = await createKbFixture();
  await kb.put(
    'conventions/naming.md',
    hubDoc(
      { id: khIdFor('hub:conventions/naming.md'), sensitivity: 'internal' },
      '# Naming\n\nFiles use kebab-case names.\n',
    ),
  );
  await kb.put(
    'secrets/vault.md',
    hubDoc({ id: khIdFor('hub:secrets/vault.md'), sensitivity: 'secret' }, '# Vault\n\nkebab-case vault key 1234.\n'),
  );
  await indexPaths(kb.hub, ['conventions/naming.md', 'secrets/vault.md']);
});

afterAll(async () => {
  await kb.close();
});

describe('kb_search, the agents’ tool', () => {
  it('is offered to the L2 and L4 levels of the default scenario and its chained review', async () => {
    const build = await loadScenario('build');
    const withTool = build.levels.filter((l) => l.tools?.includes('kb_search')).map((l) => l.role);
    expect(withTool).toEqual(['L2.architect', 'L4.executor']);
    const review = await loadScenario('review');
    expect(review.levels.find((l) => l.role === 'L4.executor')?.tools).toContain('kb_search');
    expect(TOOL_DEFINITIONS.kb_search.function.parameters).toMatchObject({ required: ['query'] });
  });

  it('answers with ranked passages the model can cite, never above internal', async () => {
    const { searchKnowledgeBase } = knowledgeActivities({ kb: kb.hub });
    const text = await searchKnowledgeBase({ query: 'kebab-case file names' });
    expect(text).toMatch(
      /^1\. Naming \(conventions\/naming\.md, kh-[0-9A-Z]{26}, score [0-9.]+\)\n {3}Files use kebab-case names\.$/,
    );
    expect(text).not.toContain('vault');
  });

  it('says so, instead of failing the level, when the process has no hub or the query is empty', async () => {
    await expect(knowledgeActivities({}).searchKnowledgeBase({ query: 'x' })).resolves.toBe(
      'The knowledge hub is not available in this deployment.',
    );
    await expect(knowledgeActivities({ kb: kb.hub }).searchKnowledgeBase({ query: '  ' })).resolves.toBe(
      'kb_search needs {"query": string}',
    );
  });
});
