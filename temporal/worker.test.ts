import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { workflowOptions } from './worker';

describe('workflowOptions', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-bundle-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a worker runs the bundle file it is given', () => {
    const file = path.join(dir, 'workflow-bundle.js');
    fs.writeFileSync(file, '// bundle');
    expect(workflowOptions({ workflowBundlePath: file })).toEqual({ workflowBundle: { codePath: file } });
  });

  test('a missing bundle file stops the worker and says how to build it', () => {
    const file = path.join(dir, 'absent.js');
    expect(() => workflowOptions({ workflowBundlePath: file })).toThrow(`no workflow bundle at ${file}`);
    expect(() => workflowOptions({ workflowBundlePath: file })).toThrow('npm run build');
  });

  test('without a path the worker looks for dist/workflow-bundle.js under the project root', () => {
    const expected = path.join(path.resolve(__dirname, '..'), 'dist', 'workflow-bundle.js');
    if (fs.existsSync(expected)) {
      expect(workflowOptions({})).toEqual({ workflowBundle: { codePath: expected } });
    } else {
      expect(() => workflowOptions({})).toThrow(`no workflow bundle at ${expected}`);
    }
  });

  test('source is bundled only when asked for, and an in-memory bundle is used as is', () => {
    expect(workflowOptions({ workflowCode: 'source' })).toEqual({ workflowsPath: require.resolve('../workflows') });
    expect(workflowOptions({ workflowCode: { code: 'x' }, workflowBundlePath: '/absent' })).toEqual({
      workflowBundle: { code: 'x' },
    });
  });
});
