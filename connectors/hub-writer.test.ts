import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseHubDocument } from '../kb/document-format';
import { khIdFor } from '../kb/kh-id';
import type { SourceRecord } from './contract';
import { previousFromFile, RecordInvalidError, sourceHashOf, writeRecord } from './hub-writer';

let hubDir: string;

beforeEach(async () => {
  hubDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-writer-'));
});

afterEach(async () => {
  await fs.rm(hubDir, { recursive: true, force: true });
});

const record = (body: string, overrides: Partial<SourceRecord> = {}): SourceRecord => ({
  path: 'sources/github/acme/widgets/README.md.md',
  sourceId: 'github:acme/widgets:README.md',
  title: 'acme/widgets:README.md',
  sensitivity: 'internal',
  tags: ['code'],
  sourceUrl: 'https://github.com/acme/widgets/blob/abc/README.md',
  extra: { repo: 'acme/widgets', id: 'not-allowed' },
  body,
  ...overrides,
});

const at = (iso: string) => () => new Date(iso);
const write = (r: SourceRecord, now: string) =>
  writeRecord({ hubDir, connector: 'github', record: r, previous: (p) => previousFromFile(hubDir, p), now: at(now) });
const read = async (hubPath: string) =>
  parseHubDocument(await fs.readFile(path.join(hubDir, hubPath), 'utf8'), hubPath);

describe('writing a record into the hub', () => {
  it('writes a valid hub document with the kh-id, source hash and the connector fields', async () => {
    const outcome = await write(record('# Widgets\n'), '2026-01-01T00:00:00.000Z');
    expect(outcome).toMatchObject({ path: 'sources/github/acme/widgets/README.md.md', status: 'written' });
    const doc = await read(outcome.path);
    expect(doc.frontmatter).toMatchObject({
      id: khIdFor('github:acme/widgets:README.md'),
      sensitivity: 'internal',
      tags: ['code'],
      source_id: 'github:acme/widgets:README.md',
      source_hash: sourceHashOf('# Widgets\n'),
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      repo: 'acme/widgets',
    });
    expect(doc.frontmatter.source_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(doc.body).toBe('# Widgets\n');
  });

  it('skips an identical render and keeps id and created_at when the body changes', async () => {
    await write(record('one\n'), '2026-01-01T00:00:00.000Z');
    const again = await write(record('one\n'), '2026-02-01T00:00:00.000Z');
    expect(again.status).toBe('unchanged');
    const changed = await write(record('two\n'), '2026-03-01T00:00:00.000Z');
    expect(changed.status).toBe('written');
    const doc = await read(changed.path);
    expect(doc.frontmatter.id).toBe(khIdFor('github:acme/widgets:README.md'));
    expect(doc.frontmatter.created_at).toBe('2026-01-01T00:00:00.000Z');
    expect(doc.frontmatter.updated_at).toBe('2026-03-01T00:00:00.000Z');
    expect(doc.body).toBe('two\n');
  });

  it('refuses a record outside sources/<connector>/ or failing the frontmatter schema, writing nothing', async () => {
    await expect(write(record('x', { path: 'guides/x.md' }), '2026-01-01T00:00:00Z')).rejects.toThrow(
      'is not under sources/github/',
    );
    await expect(write(record('x', { path: 'sources/github/../x.md' }), '2026-01-01T00:00:00Z')).rejects.toThrow(
      RecordInvalidError,
    );
    await expect(write(record('x', { sensitivity: 'top-secret' as never }), '2026-01-01T00:00:00Z')).rejects.toThrow(
      'sensitivity',
    );
    await expect(write(record('x', { sourceUrl: 'not a url' }), '2026-01-01T00:00:00Z')).rejects.toThrow('source_url');
    expect(await fs.readdir(hubDir)).toEqual([]);
  });
});
