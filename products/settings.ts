import type { BuildLimits } from './build-runner';

/** What the product-build activities need from the worker's configuration. */
export interface ProductSettings {
  buildLimits: BuildLimits;
  vercel: {
    /** `https://api.vercel.com`, or a local server in tests. */
    apiUrl: string;
    teamId?: string;
    pollIntervalMs: number;
    readyTimeoutMs: number;
  };
  /** The secrets store (`SECRETS_DIR/<id>`, then env `<id>`): the deploy token is secret `VERCEL_TOKEN`. */
  secretsDir?: string;
  /** Secrets taken from the environment when the process parsed its config (only `VERCEL_TOKEN`). */
  env: Readonly<Record<string, string>>;
}

/** The secret id (a file in SECRETS_DIR, else the env var of that name) holding the Vercel token. */
export const VERCEL_TOKEN_SECRET = 'VERCEL_TOKEN';
