import type { ChatMessage } from '../routing/chat-types';
import { renderLevelPrompt } from '../scenarios/render';
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

/**
 * Builds the level's opening messages. The system message names the level (`Keel level: <role>`); the user
 * message is the scenario level's brief rendered with earlier outputs and the request (it ends with
 * `Request:`), preceded for a verifier by `Attempt: <k>`. Without a scenario level the built-in brief is used.
 */
export function levelMessages(input: LevelInput): ChatMessage[] {
  const context = input.context.map((c) => ({ role: c.role, output: c.output }));
  const attempt = input.verifyAttempt !== undefined ? `Attempt: ${input.verifyAttempt}\n\n` : '';
  if (input.level) {
    return [
      { role: 'system', content: `Keel level: ${input.role}` },
      { role: 'user', content: `${attempt}${renderLevelPrompt(input.level, { request: input.request, context })}` },
    ];
  }
  const brief = ROLE_BRIEFS[input.role] ?? 'You are an agent in a team. Do your part of the request.';
  const blocks = context.map((c) => `## Output of ${c.role}\n${c.output}`).join('\n\n');
  return [
    { role: 'system', content: `Keel level: ${input.role}\n${brief}` },
    { role: 'user', content: `${blocks ? `${blocks}\n\n` : ''}${attempt}Request:\n${input.request}` },
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
