import { sha256Hex } from './blob-store';
import { buildManifest, diffManifests, manifestBytes, parseManifestBytes, type ManifestEntry } from './manifest';

const entry = (path: string, content: string): ManifestEntry => ({
  path,
  sha256: sha256Hex(content),
  sizeBytes: Buffer.byteLength(content),
});

describe('a manifest', () => {
  test('is named by its canonical bytes, whatever order its files come in', () => {
    const files = [entry('src/b.ts', 'b'), entry('README.md', '# hi\n'), entry('src/a.ts', 'a')];
    const manifest = buildManifest(files);
    expect(manifest.entries.map((e) => e.path)).toEqual(['README.md', 'src/a.ts', 'src/b.ts']);
    expect(buildManifest([...files].reverse()).sha256).toBe(manifest.sha256);
    expect(manifest.sha256).toBe(sha256Hex(manifestBytes(files)));
    expect(manifest.totalBytes).toBe(5 + 1 + 1);
    expect(JSON.parse(manifestBytes(files).toString('utf8'))).toEqual([
      ['README.md', sha256Hex('# hi\n'), 5],
      ['src/a.ts', sha256Hex('a'), 1],
      ['src/b.ts', sha256Hex('b'), 1],
    ]);
  });

  test('an empty workspace has a manifest too', () => {
    expect(buildManifest([])).toEqual({ sha256: sha256Hex('[]'), entries: [], totalBytes: 0 });
  });

  test('reads back from its blob, and refuses bytes that are not its own', () => {
    const manifest = buildManifest([entry('a.md', 'x'), entry('b.md', 'y')]);
    const bytes = manifestBytes(manifest.entries);
    expect(parseManifestBytes(manifest.sha256, bytes)).toEqual(manifest);
    expect(() => parseManifestBytes(sha256Hex('other'), bytes)).toThrow(/does not match/);
  });

  test('two manifests differ file by file: added, removed, changed, in path order', () => {
    const before = [entry('keep.md', 'same'), entry('edit.md', 'one'), entry('gone.md', 'bye')];
    const after = [entry('new.md', 'hello'), entry('keep.md', 'same'), entry('edit.md', 'two')];
    expect(diffManifests(before, after)).toEqual([
      { path: 'edit.md', change: 'changed', before: entry('edit.md', 'one'), after: entry('edit.md', 'two') },
      { path: 'gone.md', change: 'removed', before: entry('gone.md', 'bye') },
      { path: 'new.md', change: 'added', after: entry('new.md', 'hello') },
    ]);
    expect(diffManifests(after, after)).toEqual([]);
  });
});
