import type { FastifyRequest } from 'fastify';
import { Invalid } from '../refusals/refusal';

const NUL = '\u0000';

/** Deepest nesting of arrays and objects a request may carry; Keel's own bodies are a few levels deep. */
export const MAX_DEPTH = 32;

/** Where a request carries values, as the error messages name them (`body.prompt`, `querystring.cursor`). */
const PARTS = ['params', 'querystring', 'body'] as const;

/**
 * The first problem of a request's value, as `field: what is wrong`, or undefined: a string (value or key) holding a
 * NUL character, which PostgreSQL cannot store in text (error 22021), or nesting deeper than MAX_DEPTH, which no route
 * takes and which a free-form field (metadata) would otherwise carry into storage and every later reader. The walk
 * keeps its own stack: a deeply nested body must not overflow the call stack.
 */
export function inputProblem(value: unknown, root: string): string | undefined {
  const pending: Array<[unknown, string, number]> = [[value, root, 0]];
  while (pending.length > 0) {
    const [current, at, depth] = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes(NUL)) return `${at}: must not contain the NUL character (\\u0000)`;
    } else if (current !== null && typeof current === 'object') {
      if (depth >= MAX_DEPTH) return `${at}: nested deeper than ${MAX_DEPTH} levels`;
      if (Array.isArray(current)) {
        for (let i = current.length - 1; i >= 0; i--) pending.push([current[i], `${at}.${i}`, depth + 1]);
      } else {
        const entries = Object.entries(current as Record<string, unknown>).reverse();
        for (const [key, child] of entries) {
          if (key.includes(NUL)) return `${at} (a key): must not contain the NUL character (\\u0000)`;
          pending.push([child, `${at}.${key}`, depth + 1]);
        }
      }
    }
  }
  return undefined;
}

/** A `preValidation` hook: refuses (400) a NUL character or too deep nesting anywhere in params, query or body. */
export async function refuseBadInput(request: FastifyRequest): Promise<void> {
  for (const part of PARTS) {
    const problem = inputProblem(part === 'querystring' ? request.query : request[part], part);
    if (problem !== undefined) throw new Invalid('invalid_request', problem);
  }
  return Promise.resolve();
}
