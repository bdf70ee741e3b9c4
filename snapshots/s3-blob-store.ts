import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { blobRelativePath, isBlobName, sha256Hex, type BlobStore, type StoredBlob } from './blob-store';

export interface S3BlobStoreOptions {
  bucket: string;
  /** Key prefix inside the bucket, e.g. `keel/`; blobs live under `<prefix>sha256/ab/abcdef…`. */
  prefix: string;
  region: string;
  /** An S3-compatible server (MinIO, R2, Ceph, a local one in tests); unset: AWS S3 itself. */
  endpoint?: string;
  /** `bucket` in the path instead of the host name: what most S3-compatible servers expect. */
  forcePathStyle: boolean;
  /**
   * Explicit credentials (tests); unset, the AWS SDK's default provider chain finds them (AWS_ACCESS_KEY_ID and
   * AWS_SECRET_ACCESS_KEY, a web identity token in Kubernetes, an instance role).
   */
  credentials?: S3ClientConfig['credentials'];
}

/**
 * Blobs as objects in an S3-compatible bucket, through the AWS SDK v3 client. PutObject is atomic (a reader sees the
 * whole object or none), so a blob is written with one PUT after a HEAD that finds it missing; two writers of the same
 * bytes write the same object. An object's LastModified is when it was stored, which garbage collection reads.
 */
export class S3BlobStore implements BlobStore {
  readonly description: string;
  private readonly client: S3Client;

  constructor(private readonly options: S3BlobStoreOptions) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
      // Checksums only where an operation requires them: the SDK's default (a CRC32 trailer on every upload in
      // aws-chunked encoding) is refused or stored verbatim by several S3-compatible servers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.description = `s3://${options.bucket}/${options.prefix}${options.endpoint ? ` at ${options.endpoint}` : ''}`;
  }

  private keyOf(sha256: string): string {
    return `${this.options.prefix}sha256/${blobRelativePath(sha256)}`;
  }

  async has(sha256: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(sha256) }));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async put(bytes: Buffer): Promise<string> {
    const sha256 = sha256Hex(bytes);
    if (await this.has(sha256)) return sha256;
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.keyOf(sha256),
        Body: bytes,
        ContentLength: bytes.length,
        ContentType: 'application/octet-stream',
      }),
    );
    return sha256;
  }

  async get(sha256: string): Promise<Buffer | undefined> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(sha256) }),
      );
      if (!object.Body) return Buffer.alloc(0);
      return Buffer.from(await object.Body.transformToByteArray());
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async *list(): AsyncIterable<StoredBlob> {
    const prefix = `${this.options.prefix}sha256/`;
    for await (const page of paginateListObjectsV2(
      { client: this.client },
      { Bucket: this.options.bucket, Prefix: prefix },
    )) {
      for (const object of page.Contents ?? []) {
        const name = object.Key?.slice(object.Key.lastIndexOf('/') + 1) ?? '';
        if (!isBlobName(name)) continue;
        yield { sha256: name, sizeBytes: object.Size ?? 0, storedAt: object.LastModified ?? new Date(0) };
      }
    }
  }

  async delete(sha256: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(sha256) }));
  }

  close(): void {
    this.client.destroy();
  }
}

/** HEAD answers a bare 404 (NotFound); GET answers NoSuchKey. Both mean "no such blob". */
function isMissing(err: unknown): boolean {
  if (err instanceof NotFound || err instanceof NoSuchKey) return true;
  const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === 404;
}
