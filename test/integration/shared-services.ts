import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { KEEL_SEARCH_ATTRIBUTES } from '../../pure/search-attributes';
import { findTemporalCli } from '../../temporal/cli-path';
import { devServerDynamicConfigArgs } from '../../temporal/dev-server';
import { bundleWorkflows } from '../../temporal/workflow-code';

/**
 * What one jest run shares between its test files (docs/performance.md, "The test suite"): one Temporal dev server
 * and one workflow bundle, made by the global set-up before any file runs. Starting a dev server and bundling
 * workflows/ took seconds per file; the run pays them once.
 *
 * Isolation stays per file: each file claims a namespace of its own from a pool the server creates at start (with
 * Keel's search attributes), so workflow ids, schedules and visibility queries never meet another file's, beside the
 * schema, Redis key prefix and task queue each file already owns. Suites that stop or kill Temporal (the fault
 * drills) or run a whole stack process start their own server, as before.
 *
 * The set-up hands both to the test files (jest workers inherit its environment) through these variables.
 */
const ADDRESS_VAR = 'KEEL_TEST_TEMPORAL_ADDRESS';
const CLAIMS_VAR = 'KEEL_TEST_NAMESPACE_CLAIMS';
const BUNDLE_VAR = 'KEEL_TEST_WORKFLOW_BUNDLE';

/** More than the test files that use Temporal (about 40); a run that needs more says so instead of sharing one. */
export const SHARED_NAMESPACES = 64;
const namespaceName = (i: number) => `keel-test-${i}`;

export interface SharedServices {
  temporal: TestWorkflowEnvironment;
  dir: string;
}

/** Where the global set-up leaves the services for the global teardown (both run in jest's parent process). */
export interface SharedServicesHolder {
  keelSharedServices?: SharedServices;
}

/** Worker and bundler logs at WARN, so a passing run reads as test results. Once per process. */
export function quietTemporalLogs(): void {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // already installed by an earlier test file in this process
  }
}

/** A dev server of this process's own (the installed CLI), with Keel's search attributes on every namespace given. */
export function startOwnTemporal(namespaces: string[] = []): Promise<TestWorkflowEnvironment> {
  quietTemporalLogs();
  const cli = findTemporalCli(process.env.TEMPORAL_CLI_PATH);
  return TestWorkflowEnvironment.createLocal({
    server: {
      ...(cli ? { executable: { type: 'existing-path', path: cli } } : {}),
      searchAttributes: KEEL_SEARCH_ATTRIBUTES,
      extraArgs: [
        '--log-level',
        'error',
        ...devServerDynamicConfigArgs(),
        ...namespaces.flatMap((name) => ['--namespace', name]),
      ],
    },
  });
}

/** Global set-up: the run's dev server and workflow bundle, published to the test files through the environment. */
export async function startSharedServices(): Promise<SharedServices> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-test-run-'));
  const namespaces = Array.from({ length: SHARED_NAMESPACES }, (_, i) => namespaceName(i));
  const [temporal, code] = await Promise.all([startOwnTemporal(namespaces), bundleWorkflows()]);
  const bundlePath = path.join(dir, 'workflow-bundle.js');
  fs.writeFileSync(bundlePath, code);
  fs.mkdirSync(path.join(dir, 'claims'));
  process.env[ADDRESS_VAR] = temporal.address;
  process.env[CLAIMS_VAR] = path.join(dir, 'claims');
  process.env[BUNDLE_VAR] = bundlePath;
  return { temporal, dir };
}

export async function stopSharedServices(shared: SharedServices): Promise<void> {
  await shared.temporal.teardown();
  fs.rmSync(shared.dir, { recursive: true, force: true });
}

/**
 * A namespace of the run's shared dev server that no other test file holds (claimed by creating its claim file
 * exclusively), or undefined when no shared server runs (a file run outside jest's global set-up).
 */
export async function claimSharedTemporal(): Promise<TestWorkflowEnvironment | undefined> {
  const address = process.env[ADDRESS_VAR];
  const claims = process.env[CLAIMS_VAR];
  if (!address || !claims) return undefined;
  quietTemporalLogs();
  for (let i = 0; i < SHARED_NAMESPACES; i += 1) {
    try {
      fs.closeSync(fs.openSync(path.join(claims, namespaceName(i)), 'wx'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw err;
    }
    return TestWorkflowEnvironment.createFromExistingServer({ address, namespace: namespaceName(i) });
  }
  throw new Error(
    `all ${SHARED_NAMESPACES} namespaces of the shared Temporal dev server are taken: raise SHARED_NAMESPACES in test/integration/shared-services.ts`,
  );
}

/** The run's workflow bundle, or undefined when no shared bundle was built. */
export function sharedWorkflowBundle(): string | undefined {
  const bundlePath = process.env[BUNDLE_VAR];
  return bundlePath ? fs.readFileSync(bundlePath, 'utf8') : undefined;
}
