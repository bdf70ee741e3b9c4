import type { ChatMessage, ToolDefinition } from '../routing/chat-types';
import type { LevelInput } from './definitions';

/** What each role is asked to do. The first line names the level so any model (and the demo model) knows its part. */
const ROLE_BRIEFS: Record<string, string> = {
  'L1.team_lead':
    'You are the team lead. Classify the request, write a short numbered plan naming the files to produce, and delegate. Never write files yourself.',
  'L2.architect':
    'You are the architect. Turn the plan into one concrete task for the executor, as lines `Task: ...` and `Acceptance: ...`.',
  'L4.executor':
    'You are the executor. Produce the files the task asks for by calling the write_file tool once per file, then reply with one line saying what you wrote.',
  'L3.verifier':
    'You are the verifier. Check the executor result against the acceptance criteria. Reply only with JSON {"verdict":"pass"|"fail","deltas":[...]}: deltas say what to change, never a rewrite.',
};

/** The executor's one tool in the first cut: write a whole file into the job's workspace. */
export const WRITE_FILE_TOOL: ToolDefinition = {
  type: 'function',
  function: {
    name: 'write_file',
    description: 'Create or overwrite a file in the job workspace. Paths are relative, e.g. docs/intro.md.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'relative path inside the workspace' },
        content: { type: 'string', description: 'the complete file content' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    },
  },
};

/** Builds the level's opening messages: the brief, earlier levels' outputs, then the request. */
export function levelMessages(input: LevelInput): ChatMessage[] {
  const brief = ROLE_BRIEFS[input.role] ?? 'You are an agent in a team. Do your part of the request.';
  const context = input.context.map((c) => `## Output of ${c.role}\n${c.output}`).join('\n\n');
  return [
    { role: 'system', content: `Keel level: ${input.role}\n${brief}` },
    { role: 'user', content: `${context ? `${context}\n\n` : ''}Request:\n${input.request}` },
  ];
}

/** Reads a verifier's JSON verdict; anything unreadable is `unknown`, which the job reports but does not retry yet. */
export function parseVerdict(output: string): { verdict: string; deltas: string[] } {
  const match = /\{[\s\S]*\}/.exec(output);
  if (!match) return { verdict: 'unknown', deltas: [] };
  try {
    const parsed = JSON.parse(match[0]) as { verdict?: unknown; deltas?: unknown };
    const verdict = parsed.verdict === 'pass' || parsed.verdict === 'fail' ? parsed.verdict : 'unknown';
    const deltas = Array.isArray(parsed.deltas) ? parsed.deltas.map(String) : [];
    return { verdict, deltas };
  } catch {
    return { verdict: 'unknown', deltas: [] };
  }
}

export function preview(text: string, max = 280): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
