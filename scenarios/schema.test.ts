import { checkScenario } from './schema';
import type { Scenario, ScenarioLevel } from './types';

/** A valid four-level scenario; each test breaks one thing in a copy. */
function scenario(): Scenario {
  return {
    name: 'build',
    description: 'Plan, execute, verify.',
    levels: [
      { role: 'L1.team_lead', prompt: 'Plan {{request}}.', tools: ['ask_user'] },
      { role: 'L2.architect', prompt: 'Write the task.', tools: ['ask_user', 'request_approval'], effort: 'high' },
      {
        role: 'L4.executor',
        prompt: 'Do the task in {{context}}.',
        requirements: ['code_generation'],
        tools: ['write_file', 'edit_file'],
        pins: ['openai/gpt-5@high'],
        fallback: ['anthropic/claude-sonnet-4'],
      },
      { role: 'L3.verifier', prompt: 'Reply with JSON.' },
    ],
    chain: { scenario: 'review' },
  };
}

function withLevel(index: number, patch: (level: ScenarioLevel) => void): Scenario {
  const value = scenario();
  patch(value.levels[index]!);
  return value;
}

function problemsOf(input: unknown): string[] {
  const checked = checkScenario(input);
  return checked.ok ? [] : checked.problems;
}

describe('scenario schema', () => {
  test('accepts a valid scenario and returns it unchanged', () => {
    expect(checkScenario(scenario())).toEqual({ ok: true, value: scenario() });
  });

  test('name: a lowercase slug', () => {
    for (const name of ['build', 'bug-fix', 'l2-review2']) {
      expect(problemsOf({ ...scenario(), name })).toEqual([]);
    }
    for (const name of ['Build', 'bug_fix', 'bug--fix', '-fix', 'fix-', '2fix', 'a b', '']) {
      expect(problemsOf({ ...scenario(), name })).toEqual([
        `scenario ${name === '' ? '?' : name}: name: must be a lowercase slug (letters, digits and single hyphens, e.g. bug-fix)`,
      ]);
    }
  });

  test('name, description and levels are required', () => {
    expect(problemsOf({})).toEqual([
      'scenario ?: name: required',
      'scenario ?: description: required',
      'scenario ?: levels: required',
    ]);
  });

  test('role: matches L<1-4>.<name>, naming the level index', () => {
    for (const role of ['L5.executor', 'L4executor', 'l4.executor', 'L4.Executor', 'L4.', 'L4.2x', 'L4.exec-utor']) {
      expect(problemsOf(withLevel(3, (level) => (level.role = role)))).toEqual([
        `scenario build: levels[3] ${role}: role: must look like L<1-4>.<name>, e.g. L4.executor (lowercase, digits, "_")`,
      ]);
    }
    expect(problemsOf(withLevel(1, (level) => (level.role = 'L2.qa_lead2')))).toEqual([]);
  });

  test('effort: one of the rungs, naming the scenario, level and field', () => {
    const input = withLevel(1, (level) => (level.effort = 'extreme' as never));
    expect(problemsOf(input)).toEqual([
      'scenario build: levels[1] L2.architect: effort: "extreme" is not a rung; use one of none, low, medium, high, max',
    ]);
  });

  test('requirements: entries from the named requirement sets', () => {
    const input = withLevel(2, (level) => (level.requirements = ['code_generation', 'telepathy']));
    expect(problemsOf(input)).toEqual([
      'scenario build: levels[2] L4.executor: requirements[1]: "telepathy" is not a requirement; use one of ' +
        'long_context, high_reasoning, code_generation, multimodal, fast_cheap',
    ]);
  });

  test('tools: only the file, read, command, human-input and knowledge tools', () => {
    const input = withLevel(0, (level) => (level.tools = ['ask_user', 'run_shell' as never]));
    expect(problemsOf(input)).toEqual([
      'scenario build: levels[0] L1.team_lead: tools[1]: "run_shell" is not a tool; use one of ' +
        'write_file, edit_file, read_file, list_files, search_files, run_command, ask_user, request_approval, kb_search',
    ]);
  });

  test('commands: run_command needs an allowlist of valid patterns, on an L4 level only', () => {
    const executor = (change: (level: ScenarioLevel) => void) => withLevel(2, change);
    expect(problemsOf(executor((level) => level.tools!.push('run_command')))).toEqual([
      'scenario build: levels[2] L4.executor: commands: run_command needs the commands it may run: list patterns ' +
        'such as "npm test" under commands',
    ]);
    const granted = (commands: string[]) =>
      executor((level) => {
        level.tools!.push('run_command');
        level.commands = commands;
      });
    expect(problemsOf(granted(['npm test', 'node --test ...']))).toEqual([]);
    expect(problemsOf(granted(['npm test && rm -rf /']))).toEqual([
      'scenario build: levels[2] L4.executor: commands[0]: only words and wildcards are allowed',
    ]);
    expect(problemsOf(executor((level) => (level.commands = ['npm test'])))).toEqual([
      'scenario build: levels[2] L4.executor: commands: only a level offered run_command runs commands',
    ]);
    expect(problemsOf(withLevel(1, (level) => level.tools!.push('run_command')))).toEqual(
      expect.arrayContaining([
        expect.stringContaining('run_command changes files, which only an L4 (executor) level may do'),
      ]),
    );
  });

  test('mcp: server names or *, on a level that calls a model', () => {
    expect(problemsOf(withLevel(1, (level) => (level.mcp = ['tickets', '*'])))).toEqual([]);
    expect(problemsOf(withLevel(1, (level) => (level.mcp = ['Tickets_2'])))).toEqual([
      'scenario build: levels[1] L2.architect: mcp[0]: must be an MCP server name (a lowercase slug such as tickets) or *',
    ]);
  });

  test('tools: the file tools are allowed only on L4 levels', () => {
    const input = withLevel(1, (level) => (level.tools = ['ask_user', 'write_file', 'edit_file']));
    expect(problemsOf(input)).toEqual([
      'scenario build: levels[1] L2.architect: tools[1]: write_file changes files, which only an L4 (executor) level may do',
      'scenario build: levels[1] L2.architect: tools[2]: edit_file changes files, which only an L4 (executor) level may do',
    ]);
    // The human-input tools are for every level, the executor included.
    expect(problemsOf(withLevel(2, (level) => level.tools!.push('ask_user')))).toEqual([]);
  });

  test('prompt: non-empty unless the level is deterministic', () => {
    const message =
      'must not be empty: a level that calls an LLM needs a brief (only a deterministic level may omit it)';
    expect(problemsOf(withLevel(1, (level) => (level.prompt = ' \n ')))).toEqual([
      `scenario build: levels[1] L2.architect: prompt: ${message}`,
    ]);
    expect(problemsOf(withLevel(1, (level) => delete (level as Partial<ScenarioLevel>).prompt))).toEqual([
      `scenario build: levels[1] L2.architect: prompt: ${message}`,
    ]);
    const deterministic = { role: 'L2.release_manager', deterministic: true };
    const checked = checkScenario({ ...scenario(), levels: [...scenario().levels, deterministic] });
    // The contract's prompt is a string, so a deterministic level without one gets an empty brief.
    expect(checked.ok && checked.value.levels[4]).toEqual({ ...deterministic, prompt: '' });
  });

  test('deterministic: a deterministic level has no tools, pins, fallback, effort or requirements', () => {
    const input = withLevel(2, (level) => {
      level.deterministic = true;
      level.effort = 'low';
    });
    const rule = 'not allowed on a deterministic level, which makes no LLM call';
    expect(problemsOf(input)).toEqual(
      ['tools', 'pins', 'fallback', 'effort', 'requirements'].map(
        (field) => `scenario build: levels[2] L4.executor: ${field}: ${rule}`,
      ),
    );
  });

  test('levels: at least one level', () => {
    expect(problemsOf({ ...scenario(), levels: [] })).toEqual([
      'scenario build: levels: a scenario needs at least one level',
    ]);
  });

  test('levels: every L3 level comes after an L4 level', () => {
    const verifierFirst = scenario();
    verifierFirst.levels = [verifierFirst.levels[3]!, ...verifierFirst.levels.slice(0, 3)];
    expect(problemsOf(verifierFirst)).toEqual([
      "scenario build: levels[0] L3.verifier: role: an L3 level verifies an executor's result, so it must come after an L4 level",
    ]);
    const noExecutor = scenario();
    noExecutor.levels.splice(2, 1);
    expect(problemsOf(noExecutor)).toEqual([
      "scenario build: levels[2] L3.verifier: role: an L3 level verifies an executor's result, so it must come after an L4 level",
    ]);
    // Once an executor has run, later verifiers (a second L4 → L3 pair, or two checks in a row) are fine.
    const twoVerifiers = scenario();
    twoVerifiers.levels.push({ role: 'L3.security_check', prompt: 'Check secrets.' });
    expect(problemsOf(twoVerifiers)).toEqual([]);
  });

  test('chain.scenario: a slug, and not the scenario itself', () => {
    expect(problemsOf({ ...scenario(), chain: { scenario: 'Review!' } })).toEqual([
      'scenario build: chain.scenario: must be a lowercase slug (letters, digits and single hyphens, e.g. bug-fix)',
    ]);
    expect(problemsOf({ ...scenario(), chain: { scenario: 'build' } })).toEqual([
      'scenario build: chain.scenario: a scenario cannot chain to itself ("build")',
    ]);
  });

  test('strict objects: unknown fields are refused, at every depth', () => {
    const input = { ...scenario(), owner: 'me', chain: { scenario: 'review', when: 'always' } };
    input.levels[2] = { ...input.levels[2]!, tool: ['write_file'] } as ScenarioLevel;
    expect(problemsOf(input)).toEqual([
      'scenario build: levels[2] L4.executor: unknown field "tool"',
      'scenario build: unknown field "chain.when"',
      'scenario build: unknown field "owner"',
    ]);
  });

  test('one broken field does not hide the other rules of its level or scenario', () => {
    const input = scenario();
    input.levels = [
      { role: 'L3.verifier', prompt: '', effort: 'extreme' as never, tools: ['write_file'] },
      ...input.levels.slice(0, 3),
    ];
    expect(problemsOf(input)).toEqual([
      'scenario build: levels[0] L3.verifier: effort: "extreme" is not a rung; use one of none, low, medium, high, max',
      'scenario build: levels[0] L3.verifier: tools[0]: write_file changes files, which only an L4 (executor) level may do',
      'scenario build: levels[0] L3.verifier: prompt: must not be empty: a level that calls an LLM needs a brief ' +
        '(only a deterministic level may omit it)',
      "scenario build: levels[0] L3.verifier: role: an L3 level verifies an executor's result, so it must come after an L4 level",
    ]);
  });

  test('pins and fallback: patterns without spaces', () => {
    const input = withLevel(2, (level) => (level.fallback = ['openai/gpt 5']));
    expect(problemsOf(input)).toEqual([
      'scenario build: levels[2] L4.executor: fallback[0]: must be a non-empty `provider/model[@rung]` pattern without spaces',
    ]);
  });

  test('a level that is not an object is located by its index', () => {
    const input = { ...scenario(), levels: [...scenario().levels, 'L3.verifier'] };
    expect(problemsOf(input)).toEqual(['scenario build: levels[4] ?: Invalid input: expected object, received string']);
  });
});
