import fs from 'node:fs';
import path from 'node:path';

let cachedRoot: string | undefined;

/** The checkout's root (where package.json lives), the same from sources under jest and from dist/. */
export function projectRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${__dirname}`);
    dir = parent;
  }
  cachedRoot = dir;
  return dir;
}
