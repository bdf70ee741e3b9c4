import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, makeTelemetryFilterString, Runtime, type LogEntry } from '@temporalio/worker';
import { projectRoot } from '../../config/paths';
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

/** More than the test files that use Temporal (about 70 in November 2026, each keeps its namespace to the run's end); a run that needs more says so instead of sharing one. */
export const SHARED_NAMESPACES = 128;
const namespaceName = (i: number) => `keel-test-${i}`;

export interface SharedServices {
  temporal: TestWorkflowEnvironment;
  dir: string;
}

/** Where the global set-up leaves the services for the global teardown (both run in jest's parent process). */
export interface SharedServicesHolder {
  keelSharedServices?: SharedServices;
}

/** Where the test processes' Temporal runtimes (workers, the bundler, the SDK's native core) write their warnings. */
export const WORKER_TEST_LOG = path.join(projectRoot(), '.data', 'test-logs', 'worker.log');

/**
 * Worker, bundler and native-core logs at WARN, into WORKER_TEST_LOG rather than the run's output: the suite provokes
 * failures on purpose (a verifier that fails four times, a status write before its row) and the SDK warns of each, so
 * a passing run would otherwise read as a wall of stack traces. Once per process.
 */
export function quietTemporalLogs(): void {
  try {
    fs.mkdirSync(path.dirname(WORKER_TEST_LOG), { recursive: true });
    const write = (entry: LogEntry) =>
      fs.appendFileSync(
        WORKER_TEST_LOG,
        `${new Date().toISOString()} [${entry.level}] pid ${process.pid} ${entry.message}${entry.meta ? ` ${inspect(entry.meta, { depth: 4, breakLength: Infinity })}` : ''}\n`,
      );
    Runtime.install({
      logger: new DefaultLogger('WARN', write),
      telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'WARN' }), forward: {} } },
    });
  } catch {
    // already installed by an earlier test file in this process
  }
}

/** Where the test suite's Temporal dev servers write their output (`npm start`'s goes to DATA_DIR/temporal.log). */
export const TEMPORAL_TEST_LOG = path.join(projectRoot(), '.data', 'test-logs', 'temporal.log');

/** Starts the CLI with its output in TEMPORAL_TEST_LOG (the script says why a script, and why a file of its own). */
const DEV_SERVER_SCRIPT = path.join(projectRoot(), 'test', 'temporal-dev-server.sh');

/**
 * A dev server of this process's own (the installed CLI, its output in TEMPORAL_TEST_LOG), with Keel's search
 * attributes on every namespace given.
 */
export async function startOwnTemporal(namespaces: string[] = []): Promise<TestWorkflowEnvironment> {
  quietTemporalLogs();
  // The script runs the CLI that findTemporalCli finds, with its output in TEMPORAL_TEST_LOG; without one, the SDK
  // falls back on its own download.
  const executable = findTemporalCli(process.env.TEMPORAL_CLI_PATH) ? DEV_SERVER_SCRIPT : undefined;
  const logStart = sizeOf(TEMPORAL_TEST_LOG);
  try {
    return await TestWorkflowEnvironment.createLocal({
      server: {
        ...(executable ? { executable: { type: 'existing-path', path: executable } } : {}),
        searchAttributes: KEEL_SEARCH_ATTRIBUTES,
        extraArgs: [
          '--log-level',
          'error',
          ...devServerDynamicConfigArgs(),
          ...namespaces.flatMap((name) => ['--namespace', name]),
        ],
      },
    });
  } catch (err) {
    // jest prints only the message of a failed set-up, so the SDK's reason and the server's last words go into it.
    throw new Error(
      `the Temporal dev server did not start: ${(err as Error).message}\n${logSince(TEMPORAL_TEST_LOG, logStart)}(the whole log is ${TEMPORAL_TEST_LOG})`,
      { cause: err },
    );
  }
}

const sizeOf = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

/** What a log gained since `from` (its last lines), for an error message; empty when nothing. */
function logSince(file: string, from: number, lines = 20): string {
  try {
    const added = fs.readFileSync(file).subarray(from).toString('utf8').trimEnd();
    return added ? `its output:\n${added.split('\n').slice(-lines).join('\n')}\n` : '';
  } catch {
    return '';
  }
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
