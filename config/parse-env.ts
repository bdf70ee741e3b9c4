import type { z } from 'zod';

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
  const lines = result.error.issues.map((issue) => {
    const name = issue.path.length > 0 ? issue.path.join('.') : '(environment)';
    return `  ${name}: ${issue.message}`;
  });
  throw new ConfigError(`${processName}: invalid configuration\n${lines.join('\n')}`);
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
