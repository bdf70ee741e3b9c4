// bench/connectors-notion-slack: Notion rendering of a large block tree, ours versus notion-to-md on the same blocks in
// the same run (notion-to-md reads them through its client interface from memory, no network), and Slack channel-days
// rendered per second (bucketing, thread stitching, transforms and rendering; no HTTP).
//   node dist/bench/connectors-notion-slack.js [--blocks=5000] [--days=2000] [--rounds=5] [--notion-rounds=50]
import { performance } from 'node:perf_hooks';
import { NotionToMarkdown } from 'notion-to-md';
import type { BlockNode } from '../connectors/notion/api-schemas';
import { BlockSchema } from '../connectors/notion/api-schemas';
import { renderBlocks, withParsedPayload } from '../connectors/notion/render-blocks';
import type { SlackMessage } from '../connectors/slack/api-schemas';
import { SlackMessageSchema } from '../connectors/slack/api-schemas';
import { ChannelPolicySchema } from '../connectors/slack/config';
import { bucketChannelDays, renderChannelDay } from '../connectors/slack/render-day';
import { param, printJson } from './measure';
import { runBench } from './run-bench';

const span = (content: string, bold = false) => ({
  type: 'text',
  text: { content, link: null },
  plain_text: content,
  href: null,
  annotations: { bold, italic: false, strikethrough: false, underline: false, code: false, color: 'default' },
});

/** A deterministic tree: sections of headings, paragraphs, nested lists, code, quotes and to-dos. */
function blockTree(total: number): { roots: unknown[]; children: Map<string, unknown[]> } {
  const children = new Map<string, unknown[]>();
  const roots: unknown[] = [];
  let n = 0;
  const make = (type: string, body: Record<string, unknown>, kids: unknown[] = []) => {
    n += 1;
    const id = `blk-${n}`;
    if (kids.length) children.set(id, kids);
    return { object: 'block', id, type, has_children: kids.length > 0, [type]: body };
  };
  while (n < total) {
    const i = n;
    roots.push(make('heading_2', { rich_text: [span(`Section ${i}`)] }));
    roots.push(
      make('paragraph', { rich_text: [span('Some text with '), span('bold words', true), span(' and more.')] }),
    );
    roots.push(
      make('bulleted_list_item', { rich_text: [span('item')] }, [
        make('bulleted_list_item', { rich_text: [span('nested')] }),
        make('bulleted_list_item', { rich_text: [span('nested 2')] }),
      ]),
    );
    roots.push(make('numbered_list_item', { rich_text: [span('first')] }));
    roots.push(make('numbered_list_item', { rich_text: [span('second')] }));
    roots.push(make('to_do', { rich_text: [span('task')], checked: i % 2 === 0 }));
    roots.push(make('quote', { rich_text: [span('quoted words')] }));
    roots.push(make('code', { rich_text: [span('const x = 1;\nconsole.log(x);')], language: 'javascript' }));
  }
  return { roots, children };
}

function toNodes(blocks: unknown[], children: Map<string, unknown[]>): BlockNode[] {
  return blocks.map((raw) => {
    // As the client reads them: the block and its payload parsed once, at the boundary.
    const block = withParsedPayload(BlockSchema.parse(raw));
    return { block, children: toNodes(children.get(block.id) ?? [], children) };
  });
}

function slackMessages(days: number): SlackMessage[] {
  const start = Date.parse('2025-01-01T00:00:00Z') / 1000;
  const messages: SlackMessage[] = [];
  for (let d = 0; d < days; d += 1) {
    for (let m = 0; m < 40; m += 1) {
      const ts = `${start + d * 86_400 + m * 600}.000${String(m).padStart(3, '0')}`;
      const root = m % 8 === 0;
      messages.push(
        SlackMessageSchema.parse({
          ts,
          ...(root ? { thread_ts: ts, reply_count: 3 } : {}),
          user: `U${m % 5}`,
          text: `hello <@U${(m + 1) % 5}> see <https://x.example/${m}|doc ${m}> in <#C1|ops> &amp; more`,
          reactions: m % 3 === 0 ? [{ name: 'tada', count: 2 }] : undefined,
        }),
      );
      if (root) {
        for (let r = 1; r <= 3; r += 1) {
          messages.push(
            SlackMessageSchema.parse({
              ts: `${start + d * 86_400 + m * 600 + r}.000000`,
              thread_ts: ts,
              user: 'U1',
              text: `reply ${r}`,
            }),
          );
        }
      }
    }
  }
  return messages;
}

async function main(): Promise<void> {
  const blocks = param('blocks', 5000);
  const days = param('days', 2000);
  const rounds = param('rounds', 5);
  // A sync renders page after page, so the renderers are compared warm: in five rounds the best was still a first
  // JIT pass for both (ratios 1.6-1.9x swung to 2.3-2.9x once warm), which measures the compiler, not the renderer.
  const notionRounds = param('notion-rounds', 50);

  const { roots, children } = blockTree(blocks);
  const nodes = toNodes(roots, children);
  const client = {
    blocks: {
      children: {
        list: async ({ block_id }: { block_id: string }) => ({
          object: 'list',
          results: block_id === 'page' ? roots : (children.get(block_id) ?? []),
          next_cursor: null,
          has_more: false,
        }),
      },
    },
  };
  // notion-to-md types its client as @notionhq/client's; ours answers the one method it calls.
  const n2m = new NotionToMarkdown({ notionClient: client as never });

  let ours = Infinity;
  let theirs = Infinity;
  let oursLength = 0;
  let theirsLength = 0;
  for (let round = 0; round < notionRounds; round += 1) {
    let t = performance.now();
    oursLength = renderBlocks(nodes).length;
    ours = Math.min(ours, performance.now() - t);
    t = performance.now();
    const md = n2m.toMarkdownString(await n2m.pageToMarkdown('page'));
    theirs = Math.min(theirs, performance.now() - t);
    theirsLength = (md.parent ?? '').length;
  }
  console.log(`notion: ${blocks}+ blocks (best of ${notionRounds})`);
  console.log(`  keel renderer   ${ours.toFixed(1)} ms  (${oursLength} chars, tree already fetched)`);
  console.log(`  notion-to-md    ${theirs.toFixed(1)} ms  (${theirsLength} chars, children listed from memory)`);
  console.log(`  ratio notion-to-md / keel = ${(theirs / ours).toFixed(1)}x`);

  const messages = slackMessages(days);
  const channel = ChannelPolicySchema.parse({ id: 'C1', name: 'general', sensitivity: 'internal' });
  const names = { user: (id: string) => `name-${id}` };
  let best = Infinity;
  for (let round = 0; round < rounds; round += 1) {
    const t = performance.now();
    for (const day of bucketChannelDays(messages))
      renderChannelDay(day, { channel, origin: 'https://acme.slack.com', names });
    best = Math.min(best, performance.now() - t);
  }
  console.log(`slack: ${days} channel-days of ${messages.length / days} messages (best of ${rounds})`);
  console.log(`  ${((days / best) * 1000).toFixed(0)} channel-days/s (${best.toFixed(1)} ms)`);
  // Loaded by bench/connectors.ts, that bench prints the JSON line; run alone, this one does.
  if (require.main === module) {
    printJson('connectors-notion-slack', {
      notion_keel_ms: ours,
      notion_to_md_ms: theirs,
      notion_ratio_theirs_over_keel: theirs / ours,
      slack_channel_days_per_s: (days / best) * 1000,
    });
  }
}

runBench(main);
