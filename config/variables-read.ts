/**
 * Which environment variables a process's config parser reads, found by running the parser over `env` behind a proxy
 * that records every name looked up. The deployment checks (deploy/check-helm.mjs, deploy/deploy-files.test.ts) use it
 * to refuse a manifest that hands a process a variable it never reads (a database password given to the console, a
 * setting under a misspelt name that silently does nothing), beside the parser's own refusal of a missing required
 * one. Exact because every parser reads the names its schemas declare and never lists the environment.
 */
export async function variablesRead<T>(
  env: NodeJS.ProcessEnv,
  parse: (env: NodeJS.ProcessEnv) => T | Promise<T>,
): Promise<{ result: T; read: ReadonlySet<string> }> {
  const read = new Set<string>();
  let listed = false;
  const watched = new Proxy(env, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return Reflect.get(target, name) as unknown;
    },
    ownKeys(target) {
      listed = true;
      return Reflect.ownKeys(target);
    },
  });
  const result = await parse(watched);
  // A parser that lists the environment reads every name: the unread check would then prove nothing, so say so.
  if (listed) throw new Error('the config parser listed the whole environment; which variables it reads is unknown');
  return { result, read };
}

/** The variables of `env` a process never read, except those its image sets for every process (`imageProvided`). */
export function unreadVariables(
  env: NodeJS.ProcessEnv,
  read: ReadonlySet<string>,
  imageProvided: readonly string[] = [],
): string[] {
  return Object.keys(env)
    .filter((name) => !read.has(name) && !imageProvided.includes(name))
    .sort();
}
