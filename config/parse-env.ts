import { z } from 'zod';

/** Thrown when the environment does not satisfy a process's schema; its message has one line per bad variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses `env` with `schema` and fails fast with one line per bad variable, naming the variable and
 * what would fix it. Called only from entry points (and tests), never at import time.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv, processName: string): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw configError(processName, problemLines(result.error.issues));
}

/** Treats an empty string as unset, so `FOO=` in a .env file means "use the default". */
export function emptyAsUndefined(value: unknown): unknown {
  return value === '' ? undefined : value;
}

/**
 * Refinement for a process that runs alone (production): the named variables, which `npm start`
 * would otherwise fill with embedded defaults, must be set.
 */
export function requireWhenAlone(names: readonly string[], processName: string) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    for (const name of names) {
      if (value[name] === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `required when the ${processName} runs alone (npm start embeds one)`,
        });
      }
    }
  };
}

/** One line per bad variable (`  NAME: what would fix it`), its problems joined when it has several. */
export function problemLines(issues: readonly z.core.$ZodIssue[]): string[] {
  const byName = new Map<string, string[]>();
  for (const issue of issues) {
    const name = issue.path.length > 0 ? issue.path.join('.') : '(environment)';
    const messages = byName.get(name) ?? [];
    if (!messages.includes(issue.message)) messages.push(issue.message);
    byName.set(name, messages);
  }
  return [...byName].map(([name, messages]) => `  ${name}: ${messages.join('; ')}`);
}

/**
 * Parses every slice of a process's environment (each owned by its folder) and collects the bad variables of all of
 * them, so one start-up reports everything an operator has to fix. A variable two slices share is reported once.
 */
export function parseSlices<S extends Record<string, z.ZodType>>(
  slices: S,
  env: NodeJS.ProcessEnv,
): { values: { [K in keyof S]?: z.output<S[K]> }; problems: string[] } {
  const values: { [K in keyof S]?: z.output<S[K]> } = {};
  const issues: z.core.$ZodIssue[] = [];
  for (const [key, schema] of Object.entries(slices) as [keyof S, S[keyof S]][]) {
    const result = schema.safeParse(env);
    if (result.success) values[key] = result.data;
    else issues.push(...result.error.issues);
  }
  return { values, problems: problemLines(issues) };
}

/** The error of a process whose environment has `problems` (one indented line each). */
export function configError(processName: string, problems: readonly string[]): ConfigError {
  return new ConfigError(`${processName}: invalid configuration\n${problems.join('\n')}`);
}

/**
 * Slice for a process that runs alone (production): the named variables, which `npm start` would otherwise fill
 * with embedded defaults, must be set. A slice of its own so the line is there even when other variables are bad.
 */
export function setWhenAlone(names: readonly string[], processName: string) {
  const message = `required when the ${processName} runs alone (npm start embeds one)`;
  const set = z.preprocess(
    emptyAsUndefined,
    z.unknown().refine((value) => value !== undefined, message),
  );
  return z.object(Object.fromEntries(names.map((name) => [name, set])));
}
