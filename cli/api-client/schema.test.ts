import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../config/paths';

const run = promisify(execFile);

// A child process: openapi-typescript's dependencies are ES modules, which Node loads and jest's runtime does not.
test('the committed API types match the routes (run `npm run openapi:client` after changing a route)', async () => {
  const root = projectRoot();
  const entry = path.join(root, 'test/integration/ts-entry.js');
  const checked = await run(process.execPath, [entry, 'cli/api-client/generate.ts', '--check'], { cwd: root }).catch(
    (err: { stdout: string; stderr: string; code: number }) => err,
  );
  expect({ stderr: checked.stderr.replace(/npm warn.*\n/g, ''), stdout: checked.stdout }).toEqual({
    stderr: '',
    stdout: [
      'clients/schema.ts matches the routes',
      'clients/identity-schema.ts matches the routes',
      'clients/console-schema.ts matches the routes',
      '',
    ].join('\n'),
  });
});
