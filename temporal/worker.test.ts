import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleBuildId } from './versioning';
import { workerVersion, workflowOptions } from './worker';
import { workerEnv, workerVersioning } from './worker-config';

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

describe('worker versioning', () => {
  const base = { POSTGRES_DSN: 'postgres://x', TEMPORAL_ADDRESS: '127.0.0.1:7233', KEEL_INSTANCE_ID: 'team' };

  test('is off unless asked for, so `npm start` and existing deployments run unversioned as before', () => {
    expect(workerVersioning(workerEnv.parse(base))).toBeUndefined();
  });

  test('pinned: the deployment defaults to the job queue and the worker makes its version current', () => {
    expect(workerVersioning(workerEnv.parse({ ...base, KEEL_WORKER_VERSIONING: 'pinned' }))).toEqual({
      deploymentName: 'keel-jobs-team',
      buildId: undefined,
      promote: true,
    });
    const named = workerEnv.parse({
      ...base,
      KEEL_WORKER_VERSIONING: 'pinned',
      KEEL_WORKER_DEPLOYMENT: 'keel-prod',
      KEEL_WORKER_BUILD_ID: 'release-42',
      KEEL_WORKER_PROMOTE: 'false',
    });
    expect(workerVersioning(named)).toEqual({ deploymentName: 'keel-prod', buildId: 'release-42', promote: false });
    expect(() => workerEnv.parse({ ...base, KEEL_WORKER_VERSIONING: 'auto' })).toThrow();
  });

  test('the build id is the bundle content: the same code gives the same id, any change a new one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-build-id-'));
    try {
      const file = path.join(dir, 'workflow-bundle.js');
      fs.writeFileSync(file, '// bundle v1');
      const versioning = { deploymentName: 'keel', promote: true };
      const fromFile = workerVersion(versioning, workflowOptions({ workflowBundlePath: file }));
      expect(fromFile).toEqual({ deploymentName: 'keel', buildId: bundleBuildId('// bundle v1') });
      expect(workerVersion(versioning, workflowOptions({ workflowCode: { code: '// bundle v1' } }))).toEqual(fromFile);
      expect(bundleBuildId('// bundle v2')).not.toBe(fromFile.buildId);
      expect(fromFile.buildId).toMatch(/^keel-[0-9a-f]{16}$/);
      expect(
        workerVersion({ ...versioning, buildId: 'set' }, workflowOptions({ workflowCode: 'source' })).buildId,
      ).toBe('set');
      expect(() => workerVersion(versioning, workflowOptions({ workflowCode: 'source' }))).toThrow(
        'KEEL_WORKER_BUILD_ID',
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
