import type { FastifyRequest } from 'fastify';
import { BadRequestError } from './errors';

const NUL = '\u0000';

/** Where a request carries values, as the error messages name them (`body.prompt`, `querystring.cursor`). */
const PARTS = ['params', 'querystring', 'body'] as const;

/**
 * The path of the first string (value or key) holding a NUL character, or undefined. PostgreSQL cannot store NUL in
 * text (error 22021), so such a value is refused at the door with its field named instead of failing in the database.
 * The walk keeps its own stack: a deeply nested body must not overflow the call stack.
 */
export function findNul(value: unknown, root: string): string | undefined {
  const pending: Array<[unknown, string]> = [[value, root]];
  while (pending.length > 0) {
    const [current, at] = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes(NUL)) return at;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) pending.push([current[i], `${at}.${i}`]);
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current as Record<string, unknown>).reverse();
      for (const [key, child] of entries) {
        if (key.includes(NUL)) return `${at} (a key)`;
        pending.push([child, `${at}.${key}`]);
      }
    }
  }
  return undefined;
}

/** A `preValidation` hook: refuses (400) a NUL character anywhere in the params, query string or body. */
export async function refuseNul(request: FastifyRequest): Promise<void> {
  for (const part of PARTS) {
    const value = part === 'querystring' ? request.query : request[part];
    const at = findNul(value, part);
    if (at !== undefined) {
      throw new BadRequestError('invalid_request', `${at}: must not contain the NUL character (\\u0000)`);
    }
  }
  return Promise.resolve();
}
