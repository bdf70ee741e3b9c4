import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';

// Every package the lockfile installs runs on every Node release package.json's `engines` admits: `npm ci` then
// prints no EBADENGINE warning, and a newcomer on the oldest admitted Node gets nothing that refuses to run there.
const root = path.resolve(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

/** The oldest release of each range `||` joins in `engines.node`: 20.20.2 for `^20.20.2 || …`. */
function floors(range: string): string[] {
  return new semver.Range(range).set.map(
    (comparators) => semver.minVersion(new semver.Range(comparators.map((c) => c.value).join(' ')))!.version,
  );
}

test("the lockfile holds no package whose engines.node excludes a Node release the project's engines admit", () => {
  const admitted = floors(manifest.engines.node);
  expect(admitted.length).toBeGreaterThan(0);
  const refused: string[] = [];
  for (const [where, entry] of Object.entries(lock.packages)) {
    const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (!where || !range) continue;
    for (const node of admitted) {
      if (!semver.satisfies(node, range))
        refused.push(`${where}@${entry.version}: engines.node ${range} excludes Node ${node}`);
    }
  }
  expect(refused).toEqual([]);
});

test('the engines floor is the Node this checkout runs on or older', () => {
  expect(semver.satisfies(process.versions.node, manifest.engines.node)).toBe(true);
});
