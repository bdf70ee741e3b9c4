/**
 * The zod schema for a scenario file (scenarios/<name>.yaml) and the one place its problems are worded.
 * Every object is strict (an unknown field is a typo, not an extension point), and each problem names the scenario,
 * the level (index and role) and the field, e.g. `scenario build: levels[1] L2.architect: tools[0]: ...`, so an
 * operator can act on it without opening the file.
 */
import { z } from 'zod';
import { fieldPath, isRecord, missingIsRequired, type Checked } from '../config/schema-helpers';
import { REQUIREMENTS, RUNGS } from '../routing/catalog/types';
import { LEVEL_ROLE } from '../pure/roles';
import { commandPatternProblem } from '../products/command-allowlist';

/** Every tool a level may be offered, in the contract's order. */
export const LEVEL_TOOLS = [
  'write_file',
  'edit_file',
  'read_file',
  'list_files',
  'search_files',
  'run_command',
  'ask_user',
  'request_approval',
  'kb_search',
] as const;

/**
 * Tools a level may be offered: the executor's file tools, the read-only workspace tools (docs/toolbelt.md), and the
 * human-input and knowledge tools any level may use.
 */
export type LevelTool = (typeof LEVEL_TOOLS)[number];

/**
 * The tools that change the workspace: only an executor (`L4.`) may hold them, so planning levels cannot write. A
 * command can write files too (a formatter, a build's output).
 */
export const FILE_TOOLS: readonly LevelTool[] = ['write_file', 'edit_file', 'run_command'];

/** Names are file names (`<name>.yaml`) and appear in events, so they are lowercase slugs: `build`, `bug-fix`. */
export const SCENARIO_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** The fields that only make sense for a level that calls an LLM. */
const LLM_ONLY_FIELDS = ['tools', 'pins', 'fallback', 'effort', 'requirements', 'commands', 'mcp'] as const;

const slug = z
  .string()
  .regex(SCENARIO_NAME, 'must be a lowercase slug (letters, digits and single hyphens, e.g. bug-fix)');

// Routing parses pins and fallbacks leniently (globs, bare model ids, `@rung`); only what can never match is refused.
const modelPattern = z.string().regex(/^\S+$/, 'must be a non-empty `provider/model[@rung]` pattern without spaces');

// A plain string array (not an enum) so the output stays `string[]`, exactly the contract's type.
const requirementName = z.string().refine((name) => (REQUIREMENTS as readonly string[]).includes(name), {
  error: (issue) => `${JSON.stringify(issue.input)} is not a requirement; use one of ${REQUIREMENTS.join(', ')}`,
});

export const levelSchema = z
  .strictObject({
    // `L1.team_lead`, `L2.architect`, `L3.verifier`, `L4.executor`, …
    role: z.string().regex(LEVEL_ROLE, 'must look like L<1-4>.<name>, e.g. L4.executor (lowercase, digits, "_")'),
    // Named requirement sets matched against model features (routing).
    requirements: z.array(requirementName).optional(),
    effort: z
      .enum(RUNGS, {
        error: (issue) =>
          issue.input === undefined
            ? undefined
            : `${JSON.stringify(issue.input)} is not a rung; use one of ${RUNGS.join(', ')}`,
      })
      .optional(),
    // Model allow list (`provider/model`, globs, `@rung`); never narrowed by the budget band.
    pins: z.array(modelPattern).optional(),
    // Appended to the level's candidates (`provider/model[@rung]`).
    fallback: z.array(modelPattern).optional(),
    // The level's brief, a template: `{{request}}` is the user's request, `{{context}}` earlier levels' outputs.
    // Optional in the file so a deterministic level need not carry an empty brief; levelRules demands it otherwise.
    prompt: z.string().default(''),
    tools: z
      .array(
        z.enum(LEVEL_TOOLS, {
          error: (issue) => `${JSON.stringify(issue.input)} is not a tool; use one of ${LEVEL_TOOLS.join(', ')}`,
        }),
      )
      .optional(),
    // What `run_command` may run: command patterns (products/command-allowlist.ts), e.g. `npm test`, `node --test ...`.
    commands: z
      .array(
        z.string().superRefine((pattern, ctx) => {
          const problem = commandPatternProblem(pattern);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }),
      )
      .optional(),
    // MCP servers attached to the job's project whose tools this level may call (docs/mcp.md): their names, or `*`
    // for every server the project has. The project's own configuration says which of their tools are allowed.
    mcp: z
      .array(
        z
          .string()
          .regex(
            /^(?:\*|[a-z0-9]+(?:-[a-z0-9]+)*)$/,
            'must be an MCP server name (a lowercase slug such as tickets) or *',
          ),
      )
      .optional(),
    // Composed in code, no LLM call (`level_finished.deterministic: true`).
    deterministic: z.boolean().optional(),
  })
  // Runs even when a field is malformed, so one typo does not hide the level's other problems.
  .superRefine((level, ctx) => levelRules(level, ctx), { when: () => true });

/** One level of a scenario, as the schema outputs it. */
export type ScenarioLevel = z.infer<typeof levelSchema>;

const pinSchema = z.string().regex(SCENARIO_NAME, 'must be a catalog id (a lowercase slug such as static-page)');

/**
 * The `product:` block of a product-build scenario (docs/product-builds.md); every field has a default, so a scenario
 * names only what it changes.
 */
export const productSchema = z.strictObject({
  /** The team lead's pre-run gates, each on or off. */
  gates: z
    .strictObject({
      scope: z.boolean().default(true),
      clarify: z.boolean().default(true),
      solutions: z.boolean().default(true),
    })
    .prefault({}),
  /** Pins (a template or design id); the job's metadata pins win over these. */
  template: pinSchema.optional(),
  design: pinSchema.optional(),
  /** Selections a person confirms (an approval) before they are used. */
  confirm: z.array(z.enum(['template', 'design'])).default([]),
  /** Run the template's build and test commands after the executor, before the verifier. */
  build_verify: z.boolean().default(true),
  /** Publish the static build to Vercel: never, always, or after a person approves. */
  deploy: z.enum(['off', 'auto', 'approve']).default('off'),
});
export type ScenarioProduct = z.infer<typeof productSchema>;

/** A scenario file. Output type: `Scenario`. */
export const scenarioSchema = z
  .strictObject({
    name: slug,
    description: z.string().trim().min(1, 'must not be empty: say what the scenario is for'),
    levels: z.array(levelSchema).min(1, 'a scenario needs at least one level'),
    // A follow-up scenario the same job is re-dispatched to after this one succeeds (`scenario_chained`).
    chain: z.strictObject({ scenario: slug }).optional(),
    // A product build: pre-run gates, template and design, real build verification, deploy (docs/product-builds.md).
    product: productSchema.optional(),
  })
  .superRefine((scenario, ctx) => scenarioRules(scenario, ctx), { when: () => true });

/**
 * A scenario: a named, validated list of levels (scenarios/*.yaml, parsed by scenarios/load.ts). Workflows
 * receive it as data from an activity, so a job keeps the scenario it started with even if files change.
 */
export type Scenario = z.infer<typeof scenarioSchema>;

/** Validates a parsed scenario document; problems read like `scenario build: levels[2] L4.executor: effort: ...`. */
export function checkScenario(input: unknown): Checked<Scenario> {
  const result = scenarioSchema.safeParse(input, { error: missingIsRequired });
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, problems: result.error.issues.flatMap((issue) => describeIssue(issue, input)) };
}

/**
 * One level's own rules. The value may be malformed (the refinement runs regardless), so it is read as unknown and
 * a rule whose inputs are missing or mistyped stays quiet: that field's own problem is already reported.
 */
function levelRules(value: unknown, ctx: z.RefinementCtx): void {
  if (!isRecord(value)) return;
  const { role, tools, deterministic, prompt, commands } = value;
  const runsCommands = Array.isArray(tools) && tools.includes('run_command');
  if (runsCommands && !(Array.isArray(commands) && commands.length > 0)) {
    ctx.addIssue({
      code: 'custom',
      path: ['commands'],
      message: 'run_command needs the commands it may run: list patterns such as "npm test" under commands',
    });
  }
  if (!runsCommands && commands !== undefined && deterministic !== true) {
    ctx.addIssue({ code: 'custom', path: ['commands'], message: 'only a level offered run_command runs commands' });
  }
  if (typeof role === 'string' && LEVEL_ROLE.test(role) && !role.startsWith('L4.') && Array.isArray(tools)) {
    tools.forEach((tool: unknown, index) => {
      if (typeof tool === 'string' && (FILE_TOOLS as readonly string[]).includes(tool)) {
        ctx.addIssue({
          code: 'custom',
          path: ['tools', index],
          message: `${tool} changes files, which only an L4 (executor) level may do`,
        });
      }
    });
  }
  if (deterministic === true) {
    for (const field of LLM_ONLY_FIELDS) {
      if (value[field] !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: 'not allowed on a deterministic level, which makes no LLM call',
        });
      }
    }
  } else if (prompt === undefined || (typeof prompt === 'string' && prompt.trim() === '')) {
    ctx.addIssue({
      code: 'custom',
      path: ['prompt'],
      message: 'must not be empty: a level that calls an LLM needs a brief (only a deterministic level may omit it)',
    });
  }
}

/** Rules across levels, and between the scenario and its chain. Reads the value as unknown, like levelRules. */
function scenarioRules(value: unknown, ctx: z.RefinementCtx): void {
  if (!isRecord(value)) return;
  if (Array.isArray(value.levels)) {
    let executorSeen = false;
    value.levels.forEach((level: unknown, index) => {
      const role = isRecord(level) && typeof level.role === 'string' ? level.role : '';
      if (role.startsWith('L4.')) executorSeen = true;
      if (role.startsWith('L3.') && !executorSeen) {
        ctx.addIssue({
          code: 'custom',
          path: ['levels', index, 'role'],
          message: "an L3 level verifies an executor's result, so it must come after an L4 level",
        });
      }
    });
  }
  const chain = value.chain;
  if (isRecord(chain) && typeof chain.scenario === 'string' && chain.scenario === value.name) {
    ctx.addIssue({
      code: 'custom',
      path: ['chain', 'scenario'],
      message: `a scenario cannot chain to itself ("${chain.scenario}")`,
    });
  }
}

/**
 * One line per problem: `scenario <name>: [levels[i] <role>: ][<field>: ]<what>`. The name and role are read from
 * the raw input (`?` when absent or not a string), so a problem is located even when those fields are the problem.
 */
function describeIssue(issue: z.core.$ZodIssue, input: unknown): string[] {
  const where = [`scenario ${labelOf(isRecord(input) ? input.name : undefined)}`];
  let rest: readonly PropertyKey[] = issue.path;
  const [top, index] = issue.path;
  if (top === 'levels' && typeof index === 'number') {
    const levels = isRecord(input) && Array.isArray(input.levels) ? (input.levels as unknown[]) : [];
    const level = levels[index];
    where.push(`levels[${index}] ${labelOf(isRecord(level) ? level.role : undefined)}`);
    rest = issue.path.slice(2);
  }
  const field = fieldPath(rest);
  const prefix = where.join(': ');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => `${prefix}: unknown field "${field === '' ? key : `${field}.${key}`}"`);
  }
  return [field === '' ? `${prefix}: ${issue.message}` : `${prefix}: ${field}: ${issue.message}`];
}

function labelOf(value: unknown): string {
  return typeof value === 'string' && value !== '' ? value : '?';
}
