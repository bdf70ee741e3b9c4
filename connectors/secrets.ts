import fs from 'node:fs/promises';
import path from 'node:path';
import { SecretIdSchema } from './config';

/**
 * The secrets store connectors read credentials from (connectors spec, Authentication): `SECRETS_DIR/<id>` (a mounted
 * secret volume; trailing newlines dropped), else an environment variable named exactly `<id>` (a secret injected by
 * the platform, taken from the environment when the process parsed its config). Configuration only ever carries the
 * id, never the value. Undefined when neither has it.
 */
export function createSecretStore(options: { secretsDir?: string; fromEnv: Readonly<Record<string, string>> }) {
  return async (id: string): Promise<string | undefined> => {
    const checked = SecretIdSchema.parse(id);
    if (options.secretsDir) {
      try {
        const value = (await fs.readFile(path.join(options.secretsDir, checked), 'utf8')).replace(/[\r\n]+$/, '');
        if (value) return value;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    const fromEnv = options.fromEnv[checked];
    return fromEnv ? fromEnv : undefined;
  };
}
