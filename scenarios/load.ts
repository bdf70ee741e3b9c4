/**
 * Loads scenario files (`<dir>/<name>.yaml`) and checks the chains between them.
 *
 * An activity loads a job's scenario and hands it to the workflow as data, so this module may do I/O; workflow code
 * imports only `render.ts` and the types. Like the catalog loader, nothing falls back to a default: a broken
 * scenario must stop the job that asked for it, not quietly run another. Every failure is one `ConfigFileError`.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../config/paths';
import type { Scenario } from './types';
import { checkScenario, SCENARIO_NAME } from './schema';
import { cannotRead, ConfigFileError, parseConfigText } from '../config/config-file';
import { isRecord } from '../config/schema-helpers';
import type { Checked } from '../config/schema-helpers';

/**
 * The shipped scenarios folder, `<root>/scenarios`. The YAML files are not copied into dist/, so the folder is
 * found from the checkout root (where package.json is), which is the same from sources under jest and from dist/.
 */
export function defaultScenariosDir(): string {
  return path.join(projectRoot(), 'scenarios');
}

/** The scenario names in `dir` (every `*.yaml` file, without the extension), sorted. */
export async function listScenarios(dir: string = defaultScenariosDir()): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (err) {
    throw new ConfigFileError(dir, [cannotRead(err, 'folder')], 'cannot list the scenarios');
  }
  return entries
    .filter((entry) => entry.endsWith('.yaml'))
    .map((entry) => entry.slice(0, -'.yaml'.length))
    .sort();
}

/**
 * Loads and validates `<dir>/<name>.yaml`. An unknown name is refused with the available names; a file that does
 * not parse or validate is refused with one line per problem. The file's `name` must equal its file name, so the
 * name a job asked for is the name its events report.
 */
export async function loadScenario(name: string, dir: string = defaultScenariosDir()): Promise<Scenario> {
  // The name arrives from a request; a slug also cannot climb out of the folder (`../secrets`).
  if (!SCENARIO_NAME.test(name)) {
    throw new ConfigFileError(
      dir,
      [`"${name}" is not a scenario name (a lowercase slug, e.g. build)`],
      'no such scenario',
    );
  }
  const file = path.join(dir, `${name}.yaml`);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new ConfigFileError(file, [cannotRead(err, 'file')], `cannot load scenario "${name}"`);
    }
    // Listing also reports a missing folder, which is a configuration problem rather than an unknown name.
    const available = await listScenarios(dir);
    const names = available.length > 0 ? available.join(', ') : 'none';
    throw new ConfigFileError(file, [`unknown scenario "${name}"; available: ${names}`], 'no such scenario');
  }
  const checked = parseScenario(text, name);
  if (!checked.ok) throw new ConfigFileError(file, checked.problems, `cannot load scenario "${name}"`);
  return checked.value;
}

/** The problems in scenario YAML text, one line each (empty when it is valid); never throws. */
export function scenarioIssues(text: string): string[] {
  const checked = parseScenario(text);
  return checked.ok ? [] : checked.problems;
}

/**
 * Loads every scenario in `dir` and checks their chains: each `chain.scenario` names a scenario in the folder, and
 * following chains never comes back to where it started (a job would otherwise be re-dispatched forever). Throws one
 * `ConfigFileError` with every problem: the loading problems of each broken file, then the chain problems.
 */
export async function validateChains(dir: string = defaultScenariosDir()): Promise<void> {
  const names = await listScenarios(dir);
  const problems: string[] = [];
  const loaded = new Map<string, Scenario>();
  for (const name of names) {
    try {
      loaded.set(name, await loadScenario(name, dir));
    } catch (err) {
      if (!(err instanceof ConfigFileError)) throw err;
      problems.push(...err.problems.map((line) => `${name}.yaml: ${line}`));
    }
  }
  for (const [name, scenario] of loaded) {
    const target = scenario.chain?.scenario;
    // A target that exists but failed to load is already reported above; calling it missing would mislead.
    if (target !== undefined && !names.includes(target)) {
      problems.push(`scenario ${name}: chain.scenario: no scenario "${target}" (available: ${names.join(', ')})`);
    }
  }
  problems.push(...chainCycles(loaded).map((cycle) => `chain cycle: ${cycle.join(' → ')}`));
  if (problems.length > 0) throw new ConfigFileError(dir, problems, 'the scenarios are invalid');
}

/**
 * Each cycle once, as its names in chain order with the first repeated at the end (`a → b → a`), starting from its
 * alphabetically first member. Each scenario chains to at most one other, so following the links from every start
 * finds every cycle; a chain that only runs into a cycle (`c → a → b → a`) reports the cycle, not `c`.
 */
function chainCycles(scenarios: ReadonlyMap<string, Scenario>): string[][] {
  const cycles: string[][] = [];
  const reported = new Set<string>();
  for (const start of [...scenarios.keys()].sort()) {
    const walk: string[] = [];
    let current: string | undefined = start;
    while (current !== undefined && !walk.includes(current)) {
      walk.push(current);
      current = scenarios.get(current)?.chain?.scenario;
    }
    if (current === undefined || reported.has(current)) continue;
    const cycle = walk.slice(walk.indexOf(current));
    cycle.forEach((member) => reported.add(member));
    const first = cycle.indexOf([...cycle].sort()[0]!);
    const ordered = [...cycle.slice(first), ...cycle.slice(0, first)];
    cycles.push([...ordered, ordered[0]!]);
  }
  return cycles;
}

/** Parses and checks scenario text; with `fileName`, the document's `name` must also equal it. */
function parseScenario(text: string, fileName?: string): Checked<Scenario> {
  // Duplicate keys are errors, so a repeated `prompt:` cannot silently replace another.
  const parsed = parseConfigText(text, 'yaml');
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  const checked = checkScenario(value);
  const name = isRecord(value) ? value.name : undefined;
  // Only a well-formed name can mismatch; a missing or malformed one is already reported by the schema.
  if (fileName === undefined || typeof name !== 'string' || !SCENARIO_NAME.test(name) || name === fileName) {
    return checked;
  }
  const mismatch = `scenario ${name}: name: must equal the file name ("${fileName}")`;
  return { ok: false, problems: [...(checked.ok ? [] : checked.problems), mismatch] };
}
