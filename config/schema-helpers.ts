// Shared by the file schemas (model catalog, team controls, scenarios) that report one line per problem.
import type { z } from 'zod';

/** A validated value, or one line per problem. */
export type Checked<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** zod words a missing field as "expected string, received undefined"; say what the reader must do instead. */
export function missingIsRequired(issue: z.core.$ZodRawIssue): string | undefined {
  return issue.code === 'invalid_type' && issue.input === undefined ? 'required' : undefined;
}

/** `['levels', 2, 'effort']` → `levels[2].effort`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, part) => {
    if (typeof part === 'number') return `${out}[${part}]`;
    return out === '' ? String(part) : `${out}.${String(part)}`;
  }, '');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Compile-time equality of two types, for proving a schema's output is exactly its hand-written contract. */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export type Assert<T extends true> = T;
