// Prompt tokens per level and cost per job, before and after the toolbelt and prompt caching (docs/toolbelt.md,
// docs/models.md), over a local server on the Anthropic Messages wire whose usage is counted by bench/prompt-cache.ts
// (about four characters a token; cache reads and writes as the API splits them). Nothing is asserted.
//
// The job is the default `build` scenario chained to `review`: seven model levels, two of them executors that work on a
// 20-file workspace (src/mod01.ts … src/mod20.ts, about 2.5 KB each) and fix one function in one file. Every level's
// prompt is its scenario brief rendered as Keel renders it, sent through Keel's vendor_a adapter after fitting it to
// the model's window (routing/context-fit.ts), with the tool definitions the scenario grants.
//   pasted     the executor's prompt carries every file as `Current content of <path>:` (what a level without read
//              tools needs); it edits in one round, then answers;
//   read tools the prompt carries no file; the executor calls search_files, read_file (real answers from the workspace,
//              activities/workspace-read.ts), edit_file, then answers;
//   + caching  read tools, with the wire's cache_control breakpoints honoured (the other two rows send the same prompts
//              but the server caches nothing).
// Cost per job: the same token counts at each shipped frontier-band model's catalog prices (input, cached input, cache
// write, output); every level counted on that model. Cache reads on chat_compat and vendor_b are the vendors' automatic
// prefix caching, assumed to hit the same prefixes (OpenAI caches in 128-token steps, so this slightly flatters it).
// Run: npm run build && node dist/bench/prompt-tokens.js [--json]
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { workspaceReadActivities } from '../activities/workspace-read';
import { renderLevelPrompt } from '../pure/render-prompt';
import { vendorAAdapter } from '../routing/adapters/vendor-a';
import { loadCatalog } from '../routing/catalog/load';
import type { ModelRow } from '../routing/catalog/types';
import type { ChatMessage, ToolCall } from '../routing/chat-types';
import { shippedModelFiles } from '../routing/config';
import { fitToWindow } from '../routing/context-fit';
import { loadScenario } from '../scenarios/load';
import { toolsFor } from '../workflows/tools';
import { PromptCache, type CacheUsage } from './prompt-cache';

const FILES = 20;
const TARGET = 'src/mod07.ts';
const OUTPUT_TOKENS = 200;

function moduleText(n: number): string {
  const lines = [`// Module ${n}: totals and formatting for ledger ${n}.`, `import { round } from './util';`, ''];
  for (let f = 1; f <= 8; f += 1) {
    lines.push(
      `/** Adds the amounts of ledger ${n}, section ${f}, rounded to cents. */`,
      `export function total${n}_${f}(amounts: number[]): number {`,
      `  let sum = 0;`,
      `  for (let i = 0; i < amounts.length; i += 1) sum += amounts[i] ?? 0;`,
      `  return round(sum * ${f}, 2);`,
      `}`,
      '',
    );
  }
  return lines.join('\n');
}

type Turn = (messages: ChatMessage[]) => { text?: string; call?: { name: string; input: Record<string, unknown> } };

/** One level of the job: its role, its rendered prompt, and the turns its model takes. */
interface Level {
  role: string;
  user: string;
  tools: ReturnType<typeof toolsFor>;
  turns: Turn[];
}

interface Server {
  url: string;
  caching: boolean;
  script: Turn[];
  usages: CacheUsage[];
  /** A fresh cache, honouring breakpoints or not. */
  reset(caching: boolean): void;
  close(): Promise<void>;
}

/** The Messages wire: answers each request with the next scripted turn, usage counted by a prompt cache. */
async function startServer(): Promise<Server> {
  let cache = new PromptCache();
  const state: Server = {
    url: '',
    caching: true,
    script: [],
    usages: [],
    reset: (caching) => {
      cache = new PromptCache();
      state.caching = caching;
    },
    close: () => new Promise((resolve) => void server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      // Without caching the server still counts the same prompt, through a cache that never keeps anything.
      if (!state.caching) cache = new PromptCache(Number.MAX_SAFE_INTEGER);
      const usage = cache.usage(body);
      state.usages.push(usage);
      const turn = state.script.shift()!(body.messages as ChatMessage[]);
      const content = turn.call
        ? [{ type: 'tool_use', id: `toolu_${state.usages.length}`, name: turn.call.name, input: turn.call.input }]
        : [{ type: 'text', text: turn.text ?? 'Done.' }];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `msg_${state.usages.length}`,
          type: 'message',
          role: 'assistant',
          model: String(body.model),
          content,
          stop_reason: turn.call ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: { ...usage, output_tokens: OUTPUT_TOKENS },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

interface LevelTokens {
  role: string;
  calls: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

async function runJob(
  server: Server,
  row: ModelRow,
  levels: Level[],
  runTool: (call: ToolCall) => Promise<string>,
): Promise<LevelTokens[]> {
  const out: LevelTokens[] = [];
  for (const level of levels) {
    const messages: ChatMessage[] = [
      { role: 'system', content: `Keel level: ${level.role}` },
      { role: 'user', content: level.user },
    ];
    server.script = [...level.turns];
    const before = server.usages.length;
    for (;;) {
      const fitted = fitToWindow(messages, level.tools, row);
      const reply = await vendorAAdapter.call({
        providerName: 'bench',
        provider: { wire: 'vendor_a', base_url: server.url },
        model: row,
        apiKey: 'bench',
        messages: fitted.messages,
        tools: level.tools,
      });
      if (reply.toolCalls.length === 0) break;
      messages.push({ role: 'assistant', content: reply.content, tool_calls: reply.toolCalls });
      for (const call of reply.toolCalls)
        messages.push({ role: 'tool', tool_call_id: call.id, content: await runTool(call) });
    }
    const usages = server.usages.slice(before);
    const sum = (pick: (u: CacheUsage) => number) => usages.reduce((total, u) => total + pick(u), 0);
    out.push({
      role: level.role,
      calls: usages.length,
      input: sum((u) => u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens),
      cacheRead: sum((u) => u.cache_read_input_tokens),
      cacheWrite: sum((u) => u.cache_creation_input_tokens),
      output: usages.length * OUTPUT_TOKENS,
    });
  }
  return out;
}

function costOf(tokens: LevelTokens[], row: ModelRow, caching: boolean): number {
  const p = row.pricing_per_1k!;
  // Only Anthropic charges for writing the cache; the others' automatic caching writes at the input price.
  const write = row.wire === 'vendor_a' && caching ? (p.cache_write ?? p.input) : p.input;
  return tokens.reduce(
    (usd, t) =>
      usd +
      ((t.input - t.cacheRead - t.cacheWrite) * p.input +
        t.cacheRead * (p.cached_input ?? p.input) +
        t.cacheWrite * write +
        t.output * p.output) /
        1000,
    0,
  );
}

async function main(): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-bench-prompt-'));
  const jobId = 'job';
  const files: Array<{ path: string; text: string }> = [];
  for (let n = 1; n <= FILES; n += 1)
    files.push({ path: `src/mod${String(n).padStart(2, '0')}.ts`, text: moduleText(n) });
  await fs.mkdir(path.join(root, jobId, 'src'), { recursive: true });
  for (const file of files) await fs.writeFile(path.join(root, jobId, file.path), file.text);
  const reader = workspaceReadActivities({ workspaceRoot: root });
  const runTool = async (call: ToolCall) =>
    call.function.name === 'edit_file' ? `Edited ${TARGET}.` : reader.readWorkspace({ jobId, call });

  const catalog = await loadCatalog(shippedModelFiles().catalog);
  const band = catalog.models
    .filter((m) => m.cost_tier === 'frontier')
    .sort((a, b) => (a.preference ?? 99) - (b.preference ?? 99));
  const opus = band.find((m) => m.wire === 'vendor_a')!;
  const build = await loadScenario('build');
  const review = await loadScenario('review');
  const request = 'Fix total7_3 in src/mod07.ts: it multiplies the sum by the section number; it should not.';
  const context = [
    { role: 'L1.team_lead', output: 'Plan: 1. fix total7_3 in src/mod07.ts so it returns the rounded sum.' },
    {
      role: 'L2.architect',
      output: 'Task: in src/mod07.ts, make total7_3 return round(sum, 2). Acceptance: no other function changes.',
    },
  ];
  const pasted = files.map((f) => `Current content of ${f.path}:\n\`\`\`ts\n${f.text}\`\`\``).join('\n\n');
  const listed = `Workspace files (read them with read_file):\n${files.map((f) => `${f.path}\t${f.text.length} bytes`).join('\n')}`;
  const edit: Turn = () => ({
    call: {
      name: 'edit_file',
      input: { path: TARGET, old: 'return round(sum * 3, 2);', new: 'return round(sum, 2);' },
    },
  });
  const done: Turn = () => ({ text: `Fixed total7_3 in ${TARGET}.` });
  const answer = (text: string): Turn[] => [() => ({ text })];

  const levelsFor = (withFiles: 'pasted' | 'read'): Level[] => {
    const levels: Level[] = [];
    for (const scenario of [build, review]) {
      for (const level of scenario.levels) {
        if (level.deterministic) continue;
        let user = renderLevelPrompt(level, { request, context });
        let turns = answer(level.role.startsWith('L3.') ? '{"verdict":"pass","deltas":[]}' : 'Task: done.');
        if (level.role === 'L4.executor') {
          if (withFiles === 'pasted') {
            user = `${user}\n\n${pasted}`;
            turns = [edit, done];
          } else {
            user = `${user}\n\n${listed}`;
            turns = [
              () => ({ call: { name: 'search_files', input: { query: 'function total7_3' } } }),
              () => ({ call: { name: 'read_file', input: { path: TARGET } } }),
              edit,
              done,
            ];
          }
        }
        const tools =
          withFiles === 'pasted' ? toolsFor(level.tools?.filter((t) => !READS.has(t))) : toolsFor(level.tools);
        levels.push({ role: level.role, user, tools, turns });
      }
    }
    return levels;
  };

  const server = await startServer();
  const variants = [
    { name: 'pasted', levels: levelsFor('pasted'), caching: false },
    { name: 'read tools', levels: levelsFor('read'), caching: false },
    { name: 'read tools + caching', levels: levelsFor('read'), caching: true },
  ];
  const results: Array<{ name: string; caching: boolean; tokens: LevelTokens[] }> = [];
  for (const variant of variants) {
    server.reset(variant.caching);
    results.push({
      name: variant.name,
      caching: variant.caching,
      tokens: await runJob(server, opus, variant.levels, runTool),
    });
  }
  await server.close();
  await fs.rm(root, { recursive: true, force: true });

  const executors = (tokens: LevelTokens[]) => tokens.filter((t) => t.role === 'L4.executor');
  const summary = results.map((r) => ({
    variant: r.name,
    executor_calls: executors(r.tokens)[0]!.calls,
    executor_prompt_tokens: executors(r.tokens)[0]!.input,
    executor_cached_tokens: executors(r.tokens)[0]!.cacheRead,
    job_prompt_tokens: r.tokens.reduce((sum, t) => sum + t.input, 0),
    job_cached_tokens: r.tokens.reduce((sum, t) => sum + t.cacheRead, 0),
    cost_per_job_usd: Object.fromEntries(band.map((row) => [row.model, costOf(r.tokens, row, r.caching)])),
  }));
  if (process.argv.includes('--json')) {
    // Not measure.ts's printJson: it rounds to cents, and a job's cost is fractions of one.
    console.log(JSON.stringify({ bench: 'prompt-tokens', levels: results, summary }));
    return;
  }
  console.log(
    `load average: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log('per level (prompt tokens, of them cached; calls):');
  for (const r of results) {
    console.log(
      `  ${r.name}: ${r.tokens.map((t) => `${t.role} ${t.input} (${t.cacheRead} cached; ${t.calls})`).join(', ')}`,
    );
  }
  console.log(
    'variant | executor prompt tokens (cached) | job prompt tokens (cached) | cost per job: ' +
      band.map((b) => b.model).join(' / '),
  );
  for (const s of summary) {
    console.log(
      `${s.variant} | ${s.executor_prompt_tokens} (${s.executor_cached_tokens}) | ${s.job_prompt_tokens} (${s.job_cached_tokens}) | ${Object.values(
        s.cost_per_job_usd,
      )
        .map((usd) => `$${usd.toFixed(4)}`)
        .join(' / ')}`,
    );
  }
}

const READS = new Set(['read_file', 'list_files', 'search_files']);

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
