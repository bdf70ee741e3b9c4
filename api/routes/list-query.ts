import { z } from 'zod';
import { decodeKeyset } from '../../db/keyset';
import { AppError } from '../../http/errors';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** `limit` and `cursor` of every list, with the workflow list's rules: limit clamped to 1..100 (default 20). */
export const pageQuery = {
  limit: z
    .string()
    .regex(/^-?[0-9]+$/, 'an integer')
    .transform((value) => Math.min(MAX_LIMIT, Math.max(1, Number(value))))
    .optional(),
  cursor: z.string().max(300).optional(),
};

/** The cursor's parts, or 400 `invalid_cursor` for one this API did not issue. */
export function cursorParts(cursor: string | undefined, patterns: readonly RegExp[]): string[] | undefined {
  if (cursor === undefined) return undefined;
  const parts = decodeKeyset(cursor, patterns);
  if (!parts) throw new AppError(400, 'invalid_cursor', 'cursor: not a next_cursor issued by this API');
  return parts;
}

export const SLUG = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase letters, digits and single dashes')
  .max(64);

/** Response fields holding stored JSON documents (plans, evidence) are passed through as objects. */
export const Json = z.unknown();
