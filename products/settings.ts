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
    /** The deploy token's id in the secrets store; the deploy activity reads it at each deploy. */
    tokenSecretId: string;
  };
}

/** The deploy token's secret id unless VERCEL_TOKEN_SECRET_ID names another. */
export const DEFAULT_VERCEL_TOKEN_SECRET = 'VERCEL_TOKEN';
