import crypto from 'node:crypto';

/** A blob as a listing sees it: its content hash, its size, and when it was stored (what garbage collection ages). */
export interface StoredBlob {
  sha256: string;
  sizeBytes: number;
  storedAt: Date;
}

/**
 * Content-addressed storage of workspace file contents: a blob is named by the SHA-256 of its bytes, written once and
 * never changed, so one copy serves every job, level run and fork that holds the same bytes. Two implementations: a
 * folder (fs-blob-store.ts, the default under DATA_DIR) and an S3-compatible bucket (s3-blob-store.ts).
 */
export interface BlobStore {
  /** Where the blobs live, for logs and docs (`folder /data/blobs`, `s3://bucket/prefix`). */
  readonly description: string;
  has(sha256: string): Promise<boolean>;
  /**
   * Stores `bytes` under their SHA-256 and returns it. Idempotent: a blob that is already there is left as it is (its
   * bytes are the same by construction). Never leaves a partial blob under the final name.
   */
  put(bytes: Buffer): Promise<string>;
  /** The blob's bytes, or undefined when the store does not hold it. */
  get(sha256: string): Promise<Buffer | undefined>;
  /** Every blob held, in no particular order. */
  list(): AsyncIterable<StoredBlob>;
  /** Removes the blob; removing one that is not there is not an error. */
  delete(sha256: string): Promise<void>;
  /**
   * Removes what writers that died mid-`put` left behind, when older than `storedBefore`, and returns how many. A
   * folder's writer killed between writing its temporary and renaming it leaves the temporary forever otherwise; a
   * bucket has none to remove (PutObject stores the object whole or not at all), so it leaves this out.
   */
  deleteStaleTemporaries?(storedBefore: Date): Promise<number>;
}

/** The lowercase hex SHA-256 of `bytes`: a blob's name. */
export function sha256Hex(bytes: Buffer | string): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** A blob name is exactly 64 lowercase hex digits; anything else never reaches a path or an object key. */
export function assertBlobName(sha256: string): string {
  if (!SHA256_HEX.test(sha256)) throw new Error(`not a SHA-256 blob name: ${JSON.stringify(sha256)}`);
  return sha256;
}

export function isBlobName(name: string): boolean {
  return SHA256_HEX.test(name);
}

/** `ab/abcdef…`: two hex digits of fan-out, so no directory (or listing page) holds every blob. */
export function blobRelativePath(sha256: string): string {
  return `${assertBlobName(sha256).slice(0, 2)}/${sha256}`;
}
