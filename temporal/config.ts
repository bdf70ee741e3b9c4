import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';

const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());

/** How a Keel process reaches Temporal. Shared by the API, the worker and the all-in-one stack. */
export const temporalEnv = z.object({
  /** host:port of a Temporal frontend. Unset under `npm start` → the embedded dev server. */
  TEMPORAL_ADDRESS: optionalString,
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  /** Temporal Cloud API key; implies TLS. */
  TEMPORAL_API_KEY: optionalString,
  /** Force TLS on or off; defaults to on when an API key or client certificate is set. */
  TEMPORAL_TLS: z.preprocess(emptyAsUndefined, z.stringbool().optional()),
  /** mTLS client certificate and key (PEM files), e.g. for Temporal Cloud with certificates. */
  TEMPORAL_TLS_CERT_PATH: optionalString,
  TEMPORAL_TLS_KEY_PATH: optionalString,
  TEMPORAL_TLS_SERVER_NAME: optionalString,
  /** The `temporal` binary for the dev server; otherwise PATH, then .temporal/bin/temporal. */
  TEMPORAL_CLI_PATH: optionalString,
  /** Pins the Temporal task queue that carries jobs; otherwise `keel-jobs-<KEEL_INSTANCE_ID>`. */
  JOB_QUEUE_KEY: optionalString,
});
export type TemporalEnv = z.infer<typeof temporalEnv>;

export interface TemporalSettings {
  address: string;
  namespace: string;
  apiKey?: string;
  tls: { serverNameOverride?: string; clientCertPair?: { crt: Buffer; key: Buffer } } | false;
}

/** Reads the TLS material named by the env into connection settings for `address`. */
export function temporalSettings(env: TemporalEnv, address: string, readFile: (p: string) => Buffer): TemporalSettings {
  const hasCert = Boolean(env.TEMPORAL_TLS_CERT_PATH && env.TEMPORAL_TLS_KEY_PATH);
  const tlsOn = env.TEMPORAL_TLS ?? (Boolean(env.TEMPORAL_API_KEY) || hasCert);
  return {
    address,
    namespace: env.TEMPORAL_NAMESPACE,
    apiKey: env.TEMPORAL_API_KEY,
    tls: tlsOn
      ? {
          serverNameOverride: env.TEMPORAL_TLS_SERVER_NAME,
          clientCertPair: hasCert
            ? { crt: readFile(env.TEMPORAL_TLS_CERT_PATH!), key: readFile(env.TEMPORAL_TLS_KEY_PATH!) }
            : undefined,
        }
      : false,
  };
}

/** The spec's rule: the job queue key is pinned by JOB_QUEUE_KEY, otherwise namespaced by the instance id. */
export function jobTaskQueue(env: { JOB_QUEUE_KEY?: string; KEEL_INSTANCE_ID: string }): string {
  return env.JOB_QUEUE_KEY ?? `keel-jobs-${env.KEEL_INSTANCE_ID}`;
}
