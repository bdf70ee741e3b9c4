import fs from 'node:fs';
import path from 'node:path';
import { renderContext, renderLevelPrompt } from './render-prompt';

const context = [
  { role: 'L1.team_lead', output: '1. Write docs/intro.md' },
  { role: 'L2.architect', output: 'Task: write docs/intro.md\nAcceptance: it has a title' },
];

describe('level prompt rendering', () => {
  test('fills {{request}} and {{context}}, context as `## Output of <role>` blocks', () => {
    const prompt = 'Brief.\n\nEarlier outputs:\n{{context}}\n\nRequest:\n{{request}}';
    expect(renderLevelPrompt({ prompt }, { request: 'Write an intro', context })).toBe(
      'Brief.\n\nEarlier outputs:\n' +
        '## Output of L1.team_lead\n1. Write docs/intro.md\n\n' +
        '## Output of L2.architect\nTask: write docs/intro.md\nAcceptance: it has a title\n\n' +
        'Request:\nWrite an intro',
    );
  });

  test('no earlier outputs render as an empty string', () => {
    expect(renderContext([])).toBe('');
    expect(renderLevelPrompt({ prompt: '[{{context}}]' }, { request: 'x', context: [] })).toBe('[]');
  });

  test('fills every occurrence, with or without spaces inside the braces', () => {
    expect(renderLevelPrompt({ prompt: '{{request}} / {{ request }}' }, { request: 'go', context: [] })).toBe(
      'go / go',
    );
  });

  test('unknown placeholders are left as they are', () => {
    const prompt = 'Use {{project}} and {{ user.name }} and {{constructor}} for {{request}}; {{not closed';
    expect(renderLevelPrompt({ prompt }, { request: 'it', context: [] })).toBe(
      'Use {{project}} and {{ user.name }} and {{constructor}} for it; {{not closed',
    );
  });

  test('placeholders inside the request or the context are not expanded again', () => {
    const rendered = renderLevelPrompt(
      { prompt: '{{context}}|{{request}}' },
      { request: 'explain {{context}}', context: [{ role: 'L1.team_lead', output: 'say {{request}}' }] },
    );
    expect(rendered).toBe('## Output of L1.team_lead\nsay {{request}}|explain {{context}}');
  });

  test('replacement text with `$` patterns is inserted literally', () => {
    expect(renderLevelPrompt({ prompt: '{{request}}' }, { request: "cost $& and $1 and $'", context: [] })).toBe(
      "cost $& and $1 and $'",
    );
  });

  test('render-prompt.ts stays importable from workflow code: no imports but types', () => {
    const source = fs.readFileSync(path.join(__dirname, 'render-prompt.ts'), 'utf8');
    const imports = source.split('\n').filter((line) => /^import\b/.test(line));
    expect(imports.every((line) => line.startsWith('import type '))).toBe(true);
  });
});
