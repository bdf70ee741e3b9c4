import type { ChatMessage } from '../routing/chat-types';
import { renderLevelPrompt } from '../pure/render-prompt';
import { REVIEW_MARKER } from '../pure/review-leads';
import type { LevelInput } from './definitions';

/**
 * Builds the level's opening messages. The system message names the level (`Keel level: <role>`); the user
 * message is the scenario level's brief rendered with earlier outputs and the request (briefs end with
 * `Request:`), preceded for a verifier or a review by `Attempt: <k>`. A review's system message has a second line,
 * REVIEW_MARKER.
 */
export function levelMessages(input: LevelInput): ChatMessage[] {
  const context = input.context.map((c) => ({ role: c.role, output: c.output }));
  const attempt = input.verifyAttempt !== undefined ? `Attempt: ${input.verifyAttempt}\n\n` : '';
  return [
    {
      role: 'system',
      content: input.review ? `Keel level: ${input.role}\n${REVIEW_MARKER}` : `Keel level: ${input.role}`,
    },
    { role: 'user', content: `${attempt}${renderLevelPrompt(input.level, { request: input.request, context })}` },
  ];
}

/** Reads a verifier's JSON verdict; anything unreadable is `unknown`, which the job reports but does not retry yet. */
export function parseVerdict(output: string): { verdict: 'pass' | 'fail' | 'unknown'; deltas: string[] } {
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
