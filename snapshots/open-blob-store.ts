import type { SecretStore } from '../secrets/store';
import type { BlobStore } from './blob-store';
import { defaultBlobDir, type BlobStoreSettings } from './config';
import { FsBlobStore } from './fs-blob-store';
import { S3BlobStore, type S3BlobStoreOptions } from './s3-blob-store';

/** How long the SDK keeps a static key's secret before asking the secrets store again (a rotation is seen then). */
const SECRET_KEY_TTL_MS = 5 * 60_000;

/**
 * The blob store the settings name: a folder, or an S3-compatible bucket. A bucket with a static key reads the key's
 * secret from `secrets` at the moment of use (and again every few minutes), never from configuration.
 */
export function openBlobStore(settings: BlobStoreSettings, secrets?: SecretStore): BlobStore {
  if (settings.kind === 'folder') return new FsBlobStore(settings.dir);
  const { staticKey, ...options } = settings;
  return new S3BlobStore({ ...options, credentials: staticKey && staticKeyProvider(staticKey, secrets) });
}

function staticKeyProvider(
  key: { accessKeyId: string; secretKeyId: string },
  secrets: SecretStore | undefined,
): S3BlobStoreOptions['credentials'] {
  return async () => {
    const secretAccessKey = await secrets?.get(key.secretKeyId);
    if (!secretAccessKey) {
      throw new Error(
        `no secret ${key.secretKeyId} for the blob store's access key ${key.accessKeyId}: add it to the secrets store` +
          (secrets ? ` (${secrets.where(key.secretKeyId)})` : ''),
      );
    }
    return { accessKeyId: key.accessKeyId, secretAccessKey, expiration: new Date(Date.now() + SECRET_KEY_TTL_MS) };
  };
}

/** The blob store of activities and routes handed none (tests, tools): the default folder beside the workspaces. */
export function blobsOrDefault(deps: { blobs?: BlobStore; workspaceRoot: string }): BlobStore {
  return deps.blobs ?? new FsBlobStore(defaultBlobDir(deps.workspaceRoot));
}
