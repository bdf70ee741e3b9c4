// Golden renders, one per block type of the spec's table, plus the annotation order and list rules.
import type { Block, BlockNode, RichText } from './api-schemas';
import { BlockSchema, RichTextSchema } from './api-schemas';
import { renderBlocks } from './render-blocks';

let nextId = 0;
function text(plain: string, annotations: Partial<NonNullable<RichText['annotations']>> = {}, href?: string): RichText {
  return RichTextSchema.parse({
    type: 'text',
    plain_text: plain,
    href: href ?? null,
    annotations: { bold: false, italic: false, strikethrough: false, underline: false, code: false, ...annotations },
  });
}
function node(type: string, body: Record<string, unknown>, children: BlockNode[] = [], id?: string): BlockNode {
  nextId += 1;
  const block: Block = BlockSchema.parse({
    object: 'block',
    id: id ?? `b${nextId}`,
    type,
    has_children: children.length > 0,
    [type]: body,
  });
  return { block, children };
}
const rt = (...spans: RichText[]) => ({ rich_text: spans });

const GOLDENS: Array<[string, BlockNode[], string]> = [
  ['paragraph', [node('paragraph', rt(text('Hello '), text('world')))], 'Hello world'],
  [
    'headings shift one level (page title is #)',
    [node('heading_1', rt(text('One'))), node('heading_2', rt(text('Two'))), node('heading_3', rt(text('Three')))],
    '## One\n\n### Two\n\n#### Three',
  ],
  [
    'bulleted_list_item with children indented 2 spaces',
    [
      node('bulleted_list_item', rt(text('a')), [
        node('bulleted_list_item', rt(text('a.1')), [node('bulleted_list_item', rt(text('a.1.i')))]),
      ]),
      node('bulleted_list_item', rt(text('b'))),
    ],
    '- a\n  - a.1\n    - a.1.i\n- b',
  ],
  [
    'numbered_list_item numbering restarts after an interruption',
    [
      node('numbered_list_item', rt(text('one'))),
      node('numbered_list_item', rt(text('two')), [node('numbered_list_item', rt(text('nested')))]),
      node('paragraph', rt(text('break'))),
      node('numbered_list_item', rt(text('again'))),
    ],
    '1. one\n2. two\n   1. nested\n\nbreak\n\n1. again',
  ],
  [
    'to_do',
    [node('to_do', { ...rt(text('done')), checked: true }), node('to_do', { ...rt(text('open')), checked: false })],
    '- [x] done\n- [ ] open',
  ],
  ['quote', [node('quote', rt(text('wise\nwords')))], '> wise\n> words'],
  [
    'callout with emoji and children inside the quote',
    [
      node('callout', { ...rt(text('Heads up')), icon: { type: 'emoji', emoji: '💡' } }, [
        node('paragraph', rt(text('more'))),
      ]),
    ],
    '> 💡 Heads up\n>\n> more',
  ],
  [
    'code keeps its language and a longer fence around backticks',
    [
      node('code', { ...rt(text('const a = 1;')), language: 'typescript' }),
      node('code', { ...rt(text('```\nx\n```')), language: 'plain text' }),
    ],
    '```typescript\nconst a = 1;\n```\n\n````text\n```\nx\n```\n````',
  ],
  [
    'image, video, file and pdf as image-style links with caption; an uncopied signed URL keeps its signature and expiry',
    [
      node('image', { type: 'external', external: { url: 'https://img.example/a.png' }, caption: [text('A chart')] }),
      node('video', { type: 'external', external: { url: 'https://youtu.be/x' }, caption: [] }),
      node('file', {
        type: 'file',
        file: { url: 'https://s3.example/f.zip?X-Amz-Signature=abc', expiry_time: '2026-01-01T00:00:00.000Z' },
        caption: [],
        name: 'f.zip',
      }),
      node('pdf', { type: 'external', external: { url: 'https://x.example/doc.pdf' }, caption: [text('Spec [v2]')] }),
    ],
    '![A chart](https://img.example/a.png)\n\n![](https://youtu.be/x)\n\n' +
      '![f.zip](https://s3.example/f.zip?X-Amz-Signature=abc) _(this Notion link expires 2026-01-01T00:00:00.000Z)_\n\n' +
      '![Spec \\[v2\\]](https://x.example/doc.pdf)',
  ],
  [
    'bookmark, embed and link_preview as the URL',
    [
      node('bookmark', { url: 'https://a.example', caption: [] }),
      node('embed', { url: 'https://b.example' }),
      node('link_preview', { url: 'https://c.example' }),
    ],
    'https://a.example\n\nhttps://b.example\n\nhttps://c.example',
  ],
  [
    'child_page and child_database as marker lines without recursion',
    [node('child_page', { title: 'Sub page' }), node('child_database', { title: 'Tasks' })],
    '[child page: Sub page]\n\n[child database: Tasks]',
  ],
  [
    'table with a header row; pipes escaped',
    [
      node('table', { table_width: 2, has_column_header: true, has_row_header: false }, [
        node('table_row', { cells: [[text('Name')], [text('Value')]] }),
        node('table_row', { cells: [[text('a|b', { bold: true })], [text('1')]] }),
      ]),
    ],
    '| Name | Value |\n| --- | --- |\n| **a\\|b** | 1 |',
  ],
  [
    'table without a header row gets an empty one',
    [
      node('table', { table_width: 2, has_column_header: false }, [
        node('table_row', { cells: [[text('x')], [text('y')]] }),
      ]),
    ],
    '| | |\n| --- | --- |\n| x | y |',
  ],
  [
    'column_list and column flattened',
    [
      node('column_list', {}, [
        node('column', {}, [node('paragraph', rt(text('left')))]),
        node('column', {}, [node('paragraph', rt(text('right')))]),
      ]),
    ],
    'left\n\nright',
  ],
  [
    'other types as an unsupported marker',
    [node('toggle', rt(text('hidden'))), node('divider', {}), node('synced_block', {})],
    '[unsupported block: toggle]\n\n[unsupported block: divider]\n\n[unsupported block: synced_block]',
  ],
];

const ANNOTATIONS: Array<[string, RichText[], string]> = [
  ['code is innermost, then bold', [text('x', { code: true, bold: true })], '**`x`**'],
  [
    'bold, italic, strikethrough in that order',
    [text('y', { bold: true, italic: true, strikethrough: true })],
    '~~_**y**_~~',
  ],
  [
    'underline renders as italic, outside strikethrough',
    [text('u', { underline: true, strikethrough: true })],
    '_~~u~~_',
  ],
  ['underline adds nothing to italic', [text('i', { italic: true, underline: true })], '_i_'],
  [
    'links wrap the annotated text',
    [text('docs', { bold: true }, 'https://d.example')],
    '[**docs**](https://d.example)',
  ],
  [
    'whitespace stays outside the markers',
    [text('say '), text(' loud ', { bold: true }), text('now')],
    'say  **loud** now',
  ],
  ['backticks inside inline code', [text('a`b', { code: true })], '``a`b``'],
  ['equation', [RichTextSchema.parse({ type: 'equation', plain_text: 'e=mc^2' })], '$e=mc^2$'],
];

describe('Notion block rendering (goldens)', () => {
  it('points a hosted file at the link the copy step gives, inside lists too', () => {
    const hosted = (id: string, name: string) =>
      node(
        'file',
        {
          type: 'file',
          file: { url: `https://s3.example/${name}?X-Amz-Signature=s`, expiry_time: '2026-01-01T00:00:00.000Z' },
          caption: [],
          name,
        },
        [],
        id,
      );
    const links = new Map([
      ['f1', { href: 'page.files/0123456789ab-a.pdf' }],
      ['f2', { href: 'https://s3.example/b (1).zip?X-Amz-Signature=s', note: '_(not copied: too big)_' }],
    ]);
    expect(
      renderBlocks(
        [node('bulleted_list_item', rt(text('see')), [hosted('f1', 'a.pdf')]), hosted('f2', 'b.zip')],
        links,
      ),
    ).toBe(
      '- see\n  ![a.pdf](page.files/0123456789ab-a.pdf)\n\n' +
        '![b.zip](<https://s3.example/b (1).zip?X-Amz-Signature=s>) _(not copied: too big)_',
    );
  });

  it.each(GOLDENS)('%s', (_name, blocks, expected) => {
    expect(renderBlocks(blocks)).toBe(expected);
  });

  it.each(ANNOTATIONS)('annotations: %s', (_name, spans, expected) => {
    expect(renderBlocks([node('paragraph', { rich_text: spans })])).toBe(expected);
  });
});
