import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { recordJobFile } from '../../db/files';
import { fileAt, filesAt } from '../../jobs/workspace-at';
import { sha256Hex, type BlobStore } from '../../snapshots/blob-store';
import { collectUnreferencedBlobs } from '../../snapshots/collect-garbage';
import { blobStoreEnv, blobStoreSettings } from '../../snapshots/config';
import { createSecretStore } from '../../secrets/store';
import { FsBlobStore } from '../../snapshots/fs-blob-store';
import { openBlobStore } from '../../snapshots/open-blob-store';
import { S3BlobStore } from '../../snapshots/s3-blob-store';
import { snapshotWorkspace } from '../../snapshots/take-snapshot';
import { createTestDatabase, type TestDatabase } from './harness';

/**
 * The blob store's contract on both of its backends: a folder, and an S3-compatible bucket served by s3rver (an npm
 * package that speaks S3's REST wire, started here on loopback), reached through the AWS SDK client as in production.
 * Then a snapshot and a collection over the bucket, against the real database.
 */
const BUCKET = 'keel-blobs';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
let tmp: string;
let server: S3rver;
let endpoint: string;
let db: TestDatabase;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-blobs-'));
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: path.join(tmp, 's3rver'),
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  db = await createTestDatabase();
});

afterAll(async () => {
  await server?.close();
  await db?.drop();
  await fs.rm(tmp, { recursive: true, force: true });
});

const s3Store = (prefix: string) =>
  new S3BlobStore({
    bucket: BUCKET,
    prefix,
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: CREDENTIALS,
  });

async function listAll(store: BlobStore) {
  const blobs = [];
  for await (const blob of store.list()) blobs.push(blob);
  return blobs.sort((a, b) => a.sha256.localeCompare(b.sha256));
}

describe.each([
  ['a folder', () => new FsBlobStore(path.join(tmp, `folder-${Math.random()}`))],
  ['an S3-compatible bucket', () => s3Store(`contract-${Math.random().toString(36).slice(2)}/`)],
])('the blob store in %s', (_where, open) => {
  test('stores bytes under their SHA-256 once, reads them back exactly, lists and deletes them', async () => {
    const store = open();
    const text = Buffer.from('# Hello\n');
    const binary = Buffer.from([0, 1, 2, 255, 0]);
    const empty = Buffer.alloc(0);
    const names = [await store.put(text), await store.put(binary), await store.put(empty)];
    expect(names).toEqual([sha256Hex(text), sha256Hex(binary), sha256Hex(empty)]);
    expect((await store.get(names[0]!))!.equals(text)).toBe(true);
    expect((await store.get(names[1]!))!.equals(binary)).toBe(true);
    expect((await store.get(names[2]!))!.length).toBe(0);

    // Written once: the same bytes again add nothing and leave the stored blob (and its age) as it was.
    const [listed] = (await listAll(store)).filter((b) => b.sha256 === names[0]);
    expect(await store.put(Buffer.from('# Hello\n'))).toBe(names[0]);
    const blobs = await listAll(store);
    expect(blobs.map((b) => b.sha256)).toEqual([...names].sort());
    expect(blobs.find((b) => b.sha256 === names[0])).toEqual(listed);
    expect(blobs.find((b) => b.sha256 === names[1])!.sizeBytes).toBe(5);

    const missing = sha256Hex('never stored');
    expect(await store.has(missing)).toBe(false);
    expect(await store.get(missing)).toBeUndefined();
    await store.delete(names[1]!);
    await store.delete(missing);
    expect(await store.has(names[1]!)).toBe(false);
    expect(await store.has(names[0]!)).toBe(true);
    expect((await listAll(store)).map((b) => b.sha256)).toEqual([names[0], names[2]].sort());
  });

  test('a name that is not a SHA-256 never reaches a path or a key', async () => {
    const store = open();
    await expect(store.get('../../etc/passwd')).rejects.toThrow(/not a SHA-256 blob name/);
    await expect(store.has('ABC')).rejects.toThrow(/not a SHA-256 blob name/);
  });
});

test('the bucket holds each blob once, under <prefix>sha256/<2 hex>/<sha256>', async () => {
  const store = s3Store('keel/');
  const bytes = Buffer.from('the same bytes, written by two jobs');
  await Promise.all([store.put(bytes), store.put(bytes)]);
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: CREDENTIALS });
  const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'keel/' }));
  const sha = sha256Hex(bytes);
  expect(listed.Contents?.map((o) => o.Key)).toEqual([`keel/sha256/${sha.slice(0, 2)}/${sha}`]);
  client.destroy();
});

test('the environment picks the bucket when one is named, else the folder beside the workspaces', () => {
  const root = path.join(tmp, 'workspaces');
  const settings = (env: NodeJS.ProcessEnv) => blobStoreSettings(blobStoreEnv.parse(env), root);
  expect(settings({})).toEqual({ kind: 'folder', dir: path.join(root, '.blobs') });
  expect(settings({ BLOB_STORE_DIR: path.join(tmp, 'elsewhere') })).toEqual({
    kind: 'folder',
    dir: path.join(tmp, 'elsewhere'),
  });
  expect(
    settings({
      BLOB_STORE_S3_BUCKET: BUCKET,
      BLOB_STORE_S3_PREFIX: 'keel',
      BLOB_STORE_S3_REGION: 'eu-west-1',
      BLOB_STORE_S3_ENDPOINT: endpoint,
      BLOB_STORE_S3_ACCESS_KEY_ID: 'S3RVER',
    }),
  ).toEqual({
    kind: 's3',
    bucket: BUCKET,
    prefix: 'keel/',
    region: 'eu-west-1',
    endpoint,
    forcePathStyle: true,
    staticKey: { accessKeyId: 'S3RVER', secretKeyId: 'BLOB_STORE_S3_SECRET_ACCESS_KEY' },
  });
  expect(settings({ BLOB_STORE_S3_BUCKET: BUCKET })).toMatchObject({ kind: 's3', forcePathStyle: false, prefix: '' });
  expect(() => settings({ BLOB_STORE_S3_ENDPOINT: 'ftp://x' })).toThrow();
  expect(openBlobStore({ kind: 'folder', dir: root }).description).toBe(`folder ${root}`);
});

test("a static key's secret is read from the secrets store at the moment of use", async () => {
  const dir = path.join(tmp, 'secrets');
  await fs.mkdir(dir, { recursive: true });
  const secrets = createSecretStore({ dir, ttlMs: 0, fromEnv: false, env: {} });
  const settings = blobStoreSettings(
    blobStoreEnv.parse({
      BLOB_STORE_S3_BUCKET: BUCKET,
      BLOB_STORE_S3_PREFIX: 'static-key',
      BLOB_STORE_S3_ENDPOINT: endpoint,
      BLOB_STORE_S3_ACCESS_KEY_ID: 'S3RVER',
    }),
    tmp,
  );
  // No secret yet: the error names the secret to add. The same store works once it is there: read at use, not at start.
  const store = openBlobStore(settings, secrets);
  await expect(store.put(Buffer.from('x'))).rejects.toThrow(/no secret BLOB_STORE_S3_SECRET_ACCESS_KEY/);
  await fs.writeFile(path.join(dir, 'BLOB_STORE_S3_SECRET_ACCESS_KEY'), 'S3RVER\n');
  const name = await store.put(Buffer.from('signed with the stored key'));
  expect((await store.get(name))!.toString()).toBe('signed with the stored key');
});

test('a snapshot over the bucket: files at a level run are read back from it; collection keeps what manifests name', async () => {
  const store = s3Store('snapshots/');
  const workspaceRoot = path.join(tmp, 'ws');
  const jobId = 'job-s3-snapshot';
  const write = async (file: string, content: string) => {
    const absolute = path.join(workspaceRoot, jobId, file);
    await fs.mkdir(path.dirname(absolute), { recursive: true });
    await fs.writeFile(absolute, content);
    await recordJobFile(db.pool, jobId, { path: file, sha256: sha256Hex(content), sizeBytes: content.length });
  };
  // job_files needs its job row.
  await db.pool.query(`INSERT INTO workflows (workflow_id, created_by, org_id) VALUES ('wf-s3', 'u', 'org')`);
  await db.pool.query(
    `INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by) VALUES ('pt-s3', 'wf-s3', 'p', 'u')`,
  );
  await db.pool.query(
    `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, created_by, org_id, task_queue)
     VALUES ($1, 'wf-s3', 'pt-s3', 'running', 'u', 'org', 'q')`,
    [jobId],
  );
  const deps = { pool: db.pool, workspaceRoot, blobs: store };

  await write('README.md', 'one\n');
  await write('src/app.ts', 'export {};\n');
  const first = await snapshotWorkspace(deps, { jobId, levelRunId: `${jobId}/L4.executor/1` });
  await write('README.md', 'two\n');
  const second = await snapshotWorkspace(deps, { jobId, levelRunId: `${jobId}/L4.executor/2` });
  // Written once: the same level run again returns what was recorded, though the workspace changed since.
  await write('README.md', 'three\n');
  expect(await snapshotWorkspace(deps, { jobId, levelRunId: `${jobId}/L4.executor/1` })).toEqual(first);

  expect(first.fileCount).toBe(2);
  expect(second.manifestSha256).not.toBe(first.manifestSha256);
  const at = (levelRunId: string, file: string) =>
    fileAt({ pool: db.pool, blobs: store }, jobId, levelRunId, file).then((b) => b?.toString('utf8'));
  expect(await at(first.levelRunId, 'README.md')).toBe('one\n');
  expect(await at(second.levelRunId, 'README.md')).toBe('two\n');
  expect(await at(second.levelRunId, 'src/app.ts')).toBe('export {};\n');
  expect((await filesAt(db.pool, jobId, second.levelRunId)).files.map((f) => f.path)).toEqual([
    'README.md',
    'src/app.ts',
  ]);

  // An orphan, and a clock a month ahead: every stored blob is old, only references keep them.
  const orphan = await store.put(Buffer.from('nobody names me'));
  const report = await collectUnreferencedBlobs(
    { pool: db.pool, blobs: store },
    { retentionHours: 24, now: new Date(Date.now() + 30 * 24 * 3_600_000) },
  );
  expect(report).toMatchObject({ deleted: 1, young: 0 });
  expect(await store.has(orphan)).toBe(false);
  // Two READMEs, the app, and the two manifests' own blobs.
  expect((await listAll(store)).length).toBe(5);
  expect(await at(first.levelRunId, 'README.md')).toBe('one\n');
  // A blob a manifest names that went missing anyway is a clear conflict, not a 500.
  await store.delete(sha256Hex('one\n'));
  await expect(at(first.levelRunId, 'README.md')).rejects.toThrow(/missing from the blob store/);
});
