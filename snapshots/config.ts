import path from 'node:path';
import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';
import { CronSchema } from '../connectors/config';
import { SecretIdSchema } from '../secrets/id';

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyAsUndefined, schema.optional());

/** The secrets store id of the bucket's secret access key, unless BLOB_STORE_S3_SECRET_KEY_ID names another. */
export const DEFAULT_S3_SECRET_KEY_ID = 'BLOB_STORE_S3_SECRET_ACCESS_KEY';

/**
 * Where workspace snapshots keep file contents (docs/workspace-snapshots.md). Read by the API (files at a level run)
 * and the worker (snapshots, garbage collection), so both spread it into their environment.
 */
export const blobStoreEnv = z.object({
  /** The folder of blobs when no bucket is set; default `.blobs` in the workspace root (DATA_DIR/workspaces/.blobs). */
  BLOB_STORE_DIR: optional(z.string().min(1)),
  /** An S3-compatible bucket for blobs; set, it replaces the folder (and the API needs no shared volume to read them). */
  BLOB_STORE_S3_BUCKET: optional(z.string().min(3).max(63)),
  /** Key prefix inside the bucket, e.g. `keel/` (blobs go under `<prefix>sha256/`). */
  BLOB_STORE_S3_PREFIX: z.preprocess(emptyAsUndefined, z.string().max(200).default('')),
  BLOB_STORE_S3_REGION: z.preprocess(emptyAsUndefined, z.string().min(1).default('us-east-1')),
  /** An S3-compatible server (MinIO, Ceph, R2, …); unset: AWS S3. Credentials: the AWS SDK's default chain. */
  BLOB_STORE_S3_ENDPOINT: optional(z.url({ protocol: /^https?$/ })),
  /** Bucket in the path, not the host name; default true with an endpoint (what S3-compatible servers expect). */
  BLOB_STORE_S3_FORCE_PATH_STYLE: optional(z.stringbool()),
  /**
   * A static access key (MinIO, Ceph, R2): its id here, its secret key in the secrets store under
   * BLOB_STORE_S3_SECRET_KEY_ID, read at the moment of use. Unset: the AWS SDK's default credential chain.
   */
  BLOB_STORE_S3_ACCESS_KEY_ID: optional(z.string().min(1).max(256)),
  BLOB_STORE_S3_SECRET_KEY_ID: z.preprocess(emptyAsUndefined, SecretIdSchema.default(DEFAULT_S3_SECRET_KEY_ID)),
});
export type BlobStoreEnv = z.infer<typeof blobStoreEnv>;

/** The worker's garbage collection of blobs no manifest names (a Temporal Schedule it creates at start). */
export const blobGcEnv = z.object({
  /** `false` leaves the schedule paused; a run can still be triggered by hand from the Temporal UI. */
  WORKSPACE_GC_ENABLED: z.preprocess(emptyAsUndefined, z.stringbool().default(true)),
  /** When it runs (UTC cron); default daily at 03:17. */
  WORKSPACE_GC_SCHEDULE: z.preprocess(emptyAsUndefined, CronSchema.default('17 3 * * *')),
  /** An unreferenced blob is deleted only once it is older than this (hours); default a week. */
  WORKSPACE_GC_RETENTION_HOURS: z.preprocess(emptyAsUndefined, z.coerce.number().min(1).max(87_600).default(168)),
});
export type BlobGcEnv = z.infer<typeof blobGcEnv>;

export type BlobStoreSettings =
  | { kind: 'folder'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      prefix: string;
      region: string;
      endpoint?: string;
      forcePathStyle: boolean;
      /** A static key: its id, and the secrets store id of its secret. Absent: the SDK's default chain. */
      staticKey?: { accessKeyId: string; secretKeyId: string };
    };

/** The blob store a process's environment names; `workspaceRoot` places the default folder. */
export function blobStoreSettings(env: BlobStoreEnv, workspaceRoot: string): BlobStoreSettings {
  if (env.BLOB_STORE_S3_BUCKET) {
    const prefix = env.BLOB_STORE_S3_PREFIX;
    return {
      kind: 's3',
      bucket: env.BLOB_STORE_S3_BUCKET,
      prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
      region: env.BLOB_STORE_S3_REGION,
      endpoint: env.BLOB_STORE_S3_ENDPOINT,
      forcePathStyle: env.BLOB_STORE_S3_FORCE_PATH_STYLE ?? env.BLOB_STORE_S3_ENDPOINT !== undefined,
      ...(env.BLOB_STORE_S3_ACCESS_KEY_ID
        ? { staticKey: { accessKeyId: env.BLOB_STORE_S3_ACCESS_KEY_ID, secretKeyId: env.BLOB_STORE_S3_SECRET_KEY_ID } }
        : {}),
    };
  }
  return { kind: 'folder', dir: path.resolve(env.BLOB_STORE_DIR ?? defaultBlobDir(workspaceRoot)) };
}

/**
 * `.blobs` inside the workspace root: under DATA_DIR by default, and on the workspaces volume wherever one is shared
 * (the Helm chart), so the API reads what workers stored. Job ids never start with a dot.
 */
export function defaultBlobDir(workspaceRoot: string): string {
  return path.join(workspaceRoot, '.blobs');
}

export interface BlobGcSettings {
  enabled: boolean;
  cron: string;
  retentionHours: number;
}

export function blobGcSettings(env: BlobGcEnv): BlobGcSettings {
  return {
    enabled: env.WORKSPACE_GC_ENABLED,
    cron: env.WORKSPACE_GC_SCHEDULE,
    retentionHours: env.WORKSPACE_GC_RETENTION_HOURS,
  };
}
