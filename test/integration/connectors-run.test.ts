import { noSecrets } from '../../secrets/store';
import { z } from 'zod';
import { connectorsConfig } from '../../connectors/settings';
import type { Connector, ConnectorStep } from '../../connectors/contract';
import { runConnectorOnce } from '../../connectors/run-once';
import { CursorInvalidError } from '../../connectors/run';
import { readConnectorCursor, writeConnectorCursor } from '../../connectors/state-store';
import { createKbFixture, type KbFixture } from './kb-fixture';

/**
 * A connector of our own contract for testing the run: five records, cursor `{ n }` after record n, a cursor-only
 * step every third record, and an optional failure after `failAfter` steps (a crash mid-run).
 */
function countingConnector(
  options: { failAfter?: number; seen?: (number | undefined)[] } = {},
): Connector<{ n: number }> {
  return {
    name: 'slack',
    cursorSchema: z.strictObject({ n: z.number().int().min(0) }),
    async *read(cursor) {
      options.seen?.push(cursor?.n);
      let steps = 0;
      for (let n = (cursor?.n ?? 0) + 1; n <= 5; n += 1) {
        if (options.failAfter !== undefined && steps >= options.failAfter) throw new Error('upstream went away');
        steps += 1;
        const step: ConnectorStep<{ n: number }> = {
          cursor: { n },
          record: {
            path: `sources/slack/general/2026-01-0${n}.md`,
            sourceId: `slack:C1:2026-01-0${n}`,
            title: `general 2026-01-0${n}`,
            sensitivity: 'internal',
            tags: ['chat'],
            sourceUrl: `https://chat.example/archives/C1/p${n}`,
            body: `## 09:0${n} — day ${n}\n\nmessage ${n}\n`,
          },
        };
        yield step;
      }
    },
  };
}

let kb: KbFixture;

beforeAll(async () => {
  kb = await createKbFixture();
});

afterAll(async () => {
  await kb.close();
});

const run = (connector: Connector<{ n: number }>, flushEvery = 1) =>
  runConnectorOnce({
    name: 'slack',
    config: connectorsConfig.parse({ CONNECTOR_FLUSH_EVERY: String(flushEvery) }),
    secrets: noSecrets,
    pool: kb.db.pool,
    index: { pool: kb.hub.pool, embedder: kb.hub.embedder },
    connector: connector,
  });

async function indexedPaths(): Promise<string[]> {
  const { rows } = await kb.index.query<{ path: string }>(
    `SELECT path FROM kb_documents WHERE path LIKE 'sources/slack/%' ORDER BY path`,
  );
  return rows.map((r) => r.path);
}

describe('the connector run loop', () => {
  it('resumes after a crash mid-run from the last stored cursor, with everything before it indexed', async () => {
    await expect(run(countingConnector({ failAfter: 3 }))).rejects.toThrow('upstream went away');
    expect(await readConnectorCursor(kb.db.pool, 'slack')).toEqual({ n: 3 });
    expect(await indexedPaths()).toEqual([1, 2, 3].map((n) => `sources/slack/general/2026-01-0${n}.md`));

    const seen: (number | undefined)[] = [];
    const report = await run(countingConnector({ seen }), 2);
    expect(seen).toEqual([3]);
    expect(report.written).toEqual(['sources/slack/general/2026-01-04.md', 'sources/slack/general/2026-01-05.md']);
    expect(await readConnectorCursor(kb.db.pool, 'slack')).toEqual({ n: 5 });
    expect(await indexedPaths()).toHaveLength(5);
  });

  it('writes nothing on a re-read of unchanged records', async () => {
    await writeConnectorCursor(kb.db.pool, 'slack', { n: 0 });
    const report = await run(countingConnector(), 10);
    expect(report).toMatchObject({ records: 5, written: [], unchanged: 5 });
  });

  it('refuses a stored cursor the connector cannot parse instead of starting over', async () => {
    await writeConnectorCursor(kb.db.pool, 'slack', { latest: 'yesterday' });
    await expect(run(countingConnector())).rejects.toThrow(CursorInvalidError);
    expect(await readConnectorCursor(kb.db.pool, 'slack')).toEqual({ latest: 'yesterday' });
  });
});
