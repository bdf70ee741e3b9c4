import fs from 'node:fs/promises';
import path from 'node:path';
import type { SecretsSettings } from './config';
import { secretEnvName, SecretIdSchema } from './id';

/**
 * The one secrets store every part of Keel reads credentials through (model providers, connectors, team chat, the
 * deploy token, inbound request signing). Callers keep only ids and ask at the moment of use, so a rotated secret is
 * picked up without a restart and a value never travels in configuration, a workflow's input or an event.
 */
export interface SecretStore {
  /**
   * The secret's current value, or undefined when the store has none (no file, an empty file). Throws only for an
   * id that is not a secret id or a file that exists but cannot be read; the error names the id, never a value.
   */
  get(id: string): Promise<string | undefined>;
  /** Where `id` is looked for, for messages that tell an operator what to set (never the value). */
  where(id: string): string;
}

/** Read failures other than "no such secret"; the message names the id and the error code only. */
export class SecretReadError extends Error {
  override name = 'SecretReadError';
  constructor(
    readonly id: string,
    readonly code: string,
  ) {
    super(`secret ${id} cannot be read (${code})`);
  }
}

interface Cached {
  value: Promise<string | undefined>;
  readAt: number;
}

/**
 * The store over `settings`: only with the development option the variable `KEEL_SECRET_<ID>`, which wins when set
 * (the one rule of docs/secrets.md); otherwise the file `<dir>/<id>` (trailing newlines dropped, as `kubectl create
 * secret --from-file` and editors leave them), re-read once it is older than `ttlMs`. `now` is the clock the TTL is
 * measured on.
 */
export function createSecretStore(settings: SecretsSettings, now: () => number = Date.now): SecretStore {
  const cache = new Map<string, Cached>();

  const readFile = async (id: string): Promise<string | undefined> => {
    if (settings.dir === undefined) return undefined;
    try {
      const value = (await fs.readFile(path.join(settings.dir, id), 'utf8')).replace(/[\r\n]+$/, '');
      return value === '' ? undefined : value;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'unknown error';
      // ENOTDIR: a parent segment of a nested id is a file, so the secret is not there either.
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw new SecretReadError(id, code);
    }
  };

  const fromFile = (id: string): Promise<string | undefined> => {
    const cached = cache.get(id);
    const at = now();
    if (cached && at - cached.readAt < settings.ttlMs) return cached.value;
    const value = readFile(id);
    cache.set(id, { value, readAt: at });
    // A failed read is not kept: the next use tries again.
    value.catch(() => {
      if (cache.get(id)?.value === value) cache.delete(id);
    });
    return value;
  };

  return {
    async get(id) {
      const checked = SecretIdSchema.safeParse(id);
      if (!checked.success) throw new SecretReadError(id, 'not a secret id');
      // One rule for every secret with a variable and a file (docs/secrets.md): the variable wins.
      const fromEnv = settings.fromEnv ? settings.env[secretEnvName(checked.data)] : undefined;
      if (fromEnv) return fromEnv;
      return fromFile(checked.data);
    },
    where(id) {
      const places: string[] = [];
      if (settings.dir !== undefined) places.push(`the file ${path.join(settings.dir, id)}`);
      if (settings.fromEnv) places.push(`the variable ${secretEnvName(id)}`);
      return places.length > 0 ? places.join(' or ') : `nowhere: KEEL_SECRETS_DIR is unset (then the file <dir>/${id})`;
    },
  };
}

/** A store that holds nothing (a process or test without secrets). */
export const noSecrets: SecretStore = createSecretStore({ ttlMs: 0, fromEnv: false, env: {} });
