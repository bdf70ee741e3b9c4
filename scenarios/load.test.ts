import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { ConfigFileError } from '../config/config-file';
import { projectRoot } from '../config/paths';
import { defaultScenariosDir, listScenarios, loadScenario, scenarioIssues, validateChains } from './load';
import type { Scenario } from './types';

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-scenarios-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A fresh folder under the test's temp dir holding `files` (name → YAML text or a scenario object). */
function folder(files: Record<string, string | Scenario>): string {
  const dir = fs.mkdtempSync(path.join(tmp, 'dir-'));
  for (const [file, content] of Object.entries(files)) {
    fs.writeFileSync(path.join(dir, file), typeof content === 'string' ? content : stringify(content));
  }
  return dir;
}

function small(name: string, chain?: string): Scenario {
  return {
    name,
    description: `The ${name} scenario.`,
    levels: [
      { role: 'L4.executor', prompt: 'Do {{request}}.', tools: ['write_file'] },
      { role: 'L3.verifier', prompt: 'Check {{context}}.' },
    ],
    ...(chain === undefined ? {} : { chain: { scenario: chain } }),
  };
}

async function scenarioError(work: Promise<unknown>): Promise<ConfigFileError> {
  try {
    await work;
  } catch (err) {
    if (err instanceof ConfigFileError) return err;
    throw err;
  }
  throw new Error('expected a ConfigFileError');
}

describe('shipped scenarios', () => {
  test('the default folder is <root>/scenarios, found from the checkout root', () => {
    expect(defaultScenariosDir()).toBe(path.join(projectRoot(), 'scenarios'));
  });

  test('build and review are listed and load', async () => {
    expect(await listScenarios()).toEqual(expect.arrayContaining(['build', 'review']));
    const build = await loadScenario('build');
    expect(build.levels.map((level) => level.role)).toEqual([
      'L1.team_lead',
      'L2.architect',
      'L4.executor',
      'L3.verifier',
    ]);
    expect(build.chain).toEqual({ scenario: 'review' });
    const review = await loadScenario('review');
    expect(review.levels.map((level) => level.role)).toEqual([
      'L2.qa_lead',
      'L4.executor',
      'L3.verifier',
      'L2.release_manager',
    ]);
    expect(review.levels.at(-1)?.deterministic).toBe(true);
    expect(review.chain).toBeUndefined();
  });

  test('their chains are valid', async () => {
    await expect(validateChains()).resolves.toBeUndefined();
  });

  test('build: only the executor holds file tools, and it needs code generation', async () => {
    const build = await loadScenario('build');
    const tools = Object.fromEntries(build.levels.map((level) => [level.role, level.tools ?? []]));
    expect(tools).toEqual({
      'L1.team_lead': ['ask_user'],
      'L2.architect': ['ask_user', 'request_approval', 'kb_search'],
      'L4.executor': ['write_file', 'edit_file', 'read_file', 'list_files', 'search_files', 'kb_search'],
      'L3.verifier': [],
    });
    expect(build.levels.find((level) => level.role === 'L4.executor')?.requirements).toEqual(['code_generation']);
  });

  test('every shipped brief ends with the request after a single `Request:` line (the demo model reads it there)', async () => {
    for (const name of await listScenarios()) {
      for (const level of (await loadScenario(name)).levels.filter((l) => !l.deterministic)) {
        expect(level.prompt.match(/^Request:/gm)).toHaveLength(1);
        expect(level.prompt.trimEnd().endsWith('Request:\n{{request}}')).toBe(true);
        // The runtime writes the `Keel level:` line itself.
        expect(level.prompt).not.toMatch(/Keel level:/);
      }
    }
  });

  test("review's executor and verifier are build's, brief for brief (YAML cannot share text across files)", async () => {
    const [build, review] = await Promise.all([loadScenario('build'), loadScenario('review')]);
    for (const role of ['L4.executor', 'L3.verifier']) {
      expect(review.levels.find((level) => level.role === role)).toEqual(
        build.levels.find((level) => level.role === role),
      );
    }
  });

  test('the shipped verifiers ask for the JSON verdict with deltas, not rewrites', async () => {
    for (const name of await listScenarios()) {
      const verifier = (await loadScenario(name)).levels.find((level) => level.role === 'L3.verifier');
      expect(verifier?.prompt).toContain('{"verdict":"pass","deltas":[]}');
      expect(verifier?.prompt).toContain('never a rewrite');
    }
  });
});

describe('scenario loader', () => {
  test('an unknown name is refused, listing the available names', async () => {
    const dir = folder({ 'build.yaml': small('build'), 'fix.yaml': small('fix') });
    const err = await scenarioError(loadScenario('deploy', dir));
    expect(err.file).toBe(path.join(dir, 'deploy.yaml'));
    expect(err.problems).toEqual(['unknown scenario "deploy"; available: build, fix']);
    expect(err.message.split('\n')[0]).toBe(`${path.join(dir, 'deploy.yaml')}: no such scenario`);
  });

  test("the public message (what a job's events and the API show) names the file without the server's folders", async () => {
    const dir = folder({ 'bad.yaml': 'name: bad\nlevels: [\n', 'build.yaml': small('build') });
    for (const name of ['deploy', 'bad']) {
      const err = await scenarioError(loadScenario(name, dir));
      expect(err.publicMessage().split('\n')[0]).toMatch(new RegExp(`^${name}\\.yaml: `));
      expect(err.publicMessage()).not.toContain(dir);
      expect(err.publicMessage()).not.toContain(os.tmpdir());
    }
  });

  test('a name that is not a slug is refused before any file is read', async () => {
    const err = await scenarioError(loadScenario('../build', folder({ 'build.yaml': small('build') })));
    expect(err.problems).toEqual(['"../build" is not a scenario name (a lowercase slug, e.g. build)']);
  });

  test('a missing scenarios folder is named', async () => {
    const dir = path.join(tmp, 'no-such-folder');
    const err = await scenarioError(loadScenario('build', dir));
    expect(err.file).toBe(dir);
    expect(err.problems).toEqual(['folder not found']);
    await expect(listScenarios(dir)).rejects.toThrow(`${dir}: cannot list the scenarios`);
  });

  test('bad YAML is refused with one line per problem, the file path first', async () => {
    const dir = folder({ 'bad.yaml': 'name: bad\nname: again\nlevels: [\n' });
    const err = await scenarioError(loadScenario('bad', dir));
    expect(err.message.split('\n')[0]).toBe(`${path.join(dir, 'bad.yaml')}: cannot load scenario "bad"`);
    expect(err.problems.length).toBeGreaterThan(0);
    for (const line of err.problems) expect(line).toMatch(/^YAML: [^\n]+$/);
    expect(err.problems.join('\n')).toMatch(/unique/i);
  });

  test('an empty file is refused', async () => {
    const err = await scenarioError(loadScenario('empty', folder({ 'empty.yaml': '\n  \n' })));
    expect(err.problems).toEqual(['the file is empty']);
  });

  test('schema problems are listed one per line, naming the scenario, level and field', async () => {
    const broken = small('broken');
    broken.levels[0]!.effort = 'extreme' as never;
    broken.levels[1]!.tools = ['write_file'];
    const err = await scenarioError(loadScenario('broken', folder({ 'broken.yaml': broken })));
    expect(err.problems).toEqual([
      'scenario broken: levels[0] L4.executor: effort: "extreme" is not a rung; use one of none, low, medium, high, max',
      'scenario broken: levels[1] L3.verifier: tools[0]: write_file changes files, which only an L4 (executor) level may do',
    ]);
    expect(err.message).toBe(
      `${err.file}: cannot load scenario "broken"\n${err.problems.map((line) => `  ${line}`).join('\n')}`,
    );
  });

  test('the name inside the file must equal the file name', async () => {
    const err = await scenarioError(loadScenario('fix', folder({ 'fix.yaml': small('hotfix') })));
    expect(err.problems).toEqual(['scenario hotfix: name: must equal the file name ("fix")']);
  });

  test('scenarioIssues checks text without a file', () => {
    expect(scenarioIssues(stringify(small('fix')))).toEqual([]);
    expect(scenarioIssues('name: fix\n')).toEqual([
      'scenario fix: description: required',
      'scenario fix: levels: required',
    ]);
  });
});

describe('scenario chains', () => {
  test('a chain to a scenario that does not exist is refused', async () => {
    const dir = folder({ 'build.yaml': small('build', 'reveiw'), 'review.yaml': small('review') });
    const err = await scenarioError(validateChains(dir));
    expect(err.problems).toEqual(['scenario build: chain.scenario: no scenario "reveiw" (available: build, review)']);
  });

  test('a chain cycle is refused, naming the cycle once', async () => {
    const dir = folder({
      'a.yaml': small('a', 'b'),
      'b.yaml': small('b', 'c'),
      'c.yaml': small('c', 'a'),
      // Runs into the cycle without being part of it.
      'entry.yaml': small('entry', 'b'),
      'done.yaml': small('done'),
    });
    const err = await scenarioError(validateChains(dir));
    expect(err.file).toBe(dir);
    expect(err.problems).toEqual(['chain cycle: a → b → c → a']);
  });

  test('a two-scenario loop (A → B → A) is refused', async () => {
    const dir = folder({ 'review.yaml': small('review', 'build'), 'build.yaml': small('build', 'review') });
    const err = await scenarioError(validateChains(dir));
    expect(err.problems).toEqual(['chain cycle: build → review → build']);
  });

  test('a file that fails to load is reported with its own problems, not as a missing chain target', async () => {
    const dir = folder({ 'build.yaml': small('build', 'review'), 'review.yaml': 'name: review\n' });
    const err = await scenarioError(validateChains(dir));
    expect(err.problems).toEqual([
      'review.yaml: scenario review: description: required',
      'review.yaml: scenario review: levels: required',
    ]);
  });
});
