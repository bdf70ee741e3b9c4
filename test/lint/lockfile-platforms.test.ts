import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * `npm ci` installs only what package-lock.json lists, and refuses a lockfile that lacks any optional dependency a
 * locked package declares. npm leaves out a platform's native package when the registry does not serve that build
 * of the locked version, so a lockfile written on Linux can then fail `npm ci` everywhere, and miss the macOS
 * binaries a developer needs. docs/npm-lockfile.md says how versions are pinned to keep every platform in.
 */
const root = path.resolve(__dirname, '../..');

const entrySchema = z.looseObject({
  version: z.string().optional(),
  os: z.array(z.string()).optional(),
  cpu: z.array(z.string()).optional(),
  libc: z.array(z.string()).optional(),
  optionalDependencies: z.record(z.string(), z.string()).optional(),
});
const lockSchema = z.looseObject({ packages: z.record(z.string(), entrySchema) });
const lock = lockSchema.parse(JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')));
type Entry = z.infer<typeof entrySchema>;

/** The entry npm resolves `name` to from the package at `from`: nested under it first, then each ancestor's. */
function resolveFrom(from: string, name: string): Entry | undefined {
  for (let dir = from; ;) {
    const entry = lock.packages[`${dir ? `${dir}/` : ''}node_modules/${name}`];
    if (entry) return entry;
    if (!dir) return undefined;
    const at = dir.lastIndexOf('/node_modules/');
    dir = at === -1 ? '' : dir.slice(0, at);
  }
}

const runsOn = (entry: Entry, os: string, cpu: string) =>
  (!entry.os || entry.os.includes(os)) &&
  (!entry.cpu || entry.cpu.includes(cpu)) &&
  (!entry.libc || entry.libc.includes('glibc'));

/** Packages that ship native code as one optional package per platform, with what each locks for each platform. */
const nativeFamilies = Object.entries(lock.packages)
  .filter(([, entry]) =>
    Object.keys(entry.optionalDependencies ?? {}).some((name) => /darwin-arm64|linux-x64/.test(name)),
  )
  .map(([at, entry]) => ({
    at,
    locked: Object.keys(entry.optionalDependencies!).map((name) => resolveFrom(at, name)),
  }));

describe('package-lock.json', () => {
  it('locks every optional dependency that a locked package declares (what npm ci checks)', () => {
    const missing = Object.entries(lock.packages).flatMap(([at, entry]) =>
      Object.keys(entry.optionalDependencies ?? {})
        .filter((name) => !resolveFrom(at, name))
        .map((name) => `${at || '(root)'} → ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('has a native build for Linux x64 and macOS arm64 of every package that ships one per platform', () => {
    expect(nativeFamilies.length).toBeGreaterThan(0);
    const lacking = nativeFamilies.flatMap(({ at, locked }) =>
      [
        ['linux', 'x64'],
        ['darwin', 'arm64'],
      ]
        .filter(([os, cpu]) => !locked.some((entry) => entry && entry.os && runsOn(entry, os!, cpu!)))
        .map(([os, cpu]) => `${at} has no ${os}-${cpu} build`),
    );
    expect(lacking).toEqual([]);
  });
});
