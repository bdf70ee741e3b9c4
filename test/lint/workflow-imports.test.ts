import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';

/**
 * Determinism is enforced by the linter, not remembered: a file under workflows/ (or pure/) importing any of these by
 * value fails `npm run lint`. Runs the repository's own eslint.config.js on probe sources; the type-aware rules are
 * switched off for the probes, which exist in no tsconfig project.
 */
const root = path.resolve(__dirname, '../..');
// Loaded here rather than found by ESLint, whose config loader uses a dynamic import that jest's runtime cannot run.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require('../../eslint.config.js') as Linter.Config[];
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: true,
  overrideConfig: [...config, tseslint.configs.disableTypeChecked],
});

const FORBIDDEN = [
  'fs/promises',
  'stream/promises',
  'timers/promises',
  '@temporalio/client',
  '@temporalio/activity',
  '@anthropic-ai/sdk',
  '../kb/hub',
  '../routing/dispatch',
  '../chat-relay/web-api',
  '../temporal/connection',
  '../config/paths',
  'fs',
  'pg',
  'ioredis',
  'node:crypto',
  // a value import of activities (they are called through proxyActivities)
  '../activities',
];

/** The specifiers ESLint reports in `source`, linted as if it were `file`. */
async function reported(source: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  const messages = result!.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports');
  const lines = source.split('\n');
  return messages.map((m) => /from '([^']+)'/.exec(lines[m.line - 1]!)![1]!);
}

const valueImports = (specifiers: string[]) =>
  specifiers.map((specifier, i) => `import * as m${i} from '${specifier}';\nvoid m${i};`).join('\n');

describe('workflow determinism lint', () => {
  test('a workflow file importing any forbidden module by value fails lint, one report per import', async () => {
    expect(await reported(valueImports(FORBIDDEN), 'workflows/probe.ts')).toEqual(FORBIDDEN);
  });

  test('every Node built-in, bare and node:, is refused in workflow code', async () => {
    const builtins = ['path', 'node:path', 'os', 'node:timers/promises', 'worker_threads', 'node:util', 'events'];
    expect(await reported(valueImports(builtins), 'workflows/probe.ts')).toEqual(builtins);
  });

  test('workflow code may import the workflow SDK, its own files, pure/, and anything as a type', async () => {
    const source = [
      "import { sleep } from '@temporalio/workflow';",
      "import { levelWorkflowId } from './definitions';",
      "import { strongestRung } from '../pure/rungs';",
      "import type { KnowledgeHub } from '../kb/hub';",
      "import type { Pool } from 'pg';",
      "import { type Activities } from '../activities';",
      'export type Used = [typeof sleep, typeof levelWorkflowId, typeof strongestRung, KnowledgeHub, Pool, Activities];',
    ].join('\n');
    expect(await reported(source, 'workflows/probe.ts')).toEqual([]);
  });

  test('a file in a subfolder of workflows/ may import workflows/ files and pure/, and nothing outside by value', async () => {
    const allowed = [
      "import { sleep } from '@temporalio/workflow';",
      "import { levelWorkflowId } from '../definitions';",
      "import { helper } from './helper';",
      "import { strongestRung } from '../../pure/rungs';",
      "import type { KnowledgeHub } from '../../kb/hub';",
      'export type Used = [typeof sleep, typeof levelWorkflowId, typeof helper, typeof strongestRung, KnowledgeHub];',
    ].join('\n');
    expect(await reported(allowed, 'workflows/job/probe.ts')).toEqual([]);
    const refused = ['../../kb/hub', '../../activities', '../../../outside', 'fs'];
    expect(await reported(valueImports(refused), 'workflows/job/probe.ts')).toEqual(refused);
  });

  test('workflow code reaching I/O, the environment or run-time loading without an import fails lint', async () => {
    const source = [
      'export const a = process.env.HOME;',
      "export const b = fetch('http://127.0.0.1');",
      "export const c = Buffer.from('x');",
      "export const d = require('fs');",
      "export const e = import('../kb/hub');",
    ].join('\n');
    for (const file of ['workflows/probe.ts', 'workflows/job/probe.ts']) {
      const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
      const refusals = result!.messages
        .filter((m) => m.ruleId === 'no-restricted-globals' || m.ruleId === 'no-restricted-syntax')
        .map((m) => [m.line, m.message.includes('deterministic')]);
      expect(refusals).toEqual([
        [1, true],
        [2, true],
        [3, true],
        [4, true],
        [5, true],
      ]);
    }
  });

  test('pure/ imports nothing with side effects: only its own files, @temporalio/common or /workflow, and types', async () => {
    const refused = ['zod', 'fs', '../routing/dispatch', '../workflows/job', '@temporalio/client'];
    expect(await reported(valueImports(refused), 'pure/probe.ts')).toEqual(refused);
    const allowed = [
      "import { defineSearchAttributeKey } from '@temporalio/common';",
      "import { RUNGS } from './rungs';",
      "import type { ScenarioLevel } from '../scenarios/types';",
      'export type Used = [typeof defineSearchAttributeKey, typeof RUNGS, ScenarioLevel];',
    ].join('\n');
    expect(await reported(allowed, 'pure/probe.ts')).toEqual([]);
  });
});
