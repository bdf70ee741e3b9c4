/**
 * Product builds (docs/product-builds.md): the team lead's pre-run gates and the template and design it starts
 * from (the prelude), the real build verification between the executor and the verifier, and the release (deploy to
 * Vercel, a human task when a person must act, UI suggestions). The prelude and the release are child workflows,
 * `<job_id>/L1.team_lead/prelude` and `<job_id>/L2.release_manager/release`, so they can wait for people; the build
 * verification runs in the job itself. Deterministic: every decision that reads the world is an activity.
 */
import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { isYes } from '../pure/yes-answer';
import type { ScenarioProduct } from '../scenarios/types';
import type { JobIds } from './definitions';
import { createEmitter, type Emit } from './emit';
import { peopleFor, type People } from './product-people';

const { checkWorkflowScope, selectTemplate, scaffoldTemplate, selectDesign, applyDesign } = proxyActivities<Activities>(
  {
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '500 milliseconds', maximumAttempts: 5 },
  },
);

const { runBuildVerification, deployToVercel } = proxyActivities<Activities>({
  // Two sandboxed commands under their own limits (2 minutes each by default), then polling a deployment.
  startToCloseTimeout: '15 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

/** A demo-friendly way to force the clarity gate's question, documented with the demo directives. */
const CLARIFY_DIRECTIVE = /(?<![\w#-])#clarify(?![\w#=-])/i;

export const GATE_ROLE = 'L1.team_lead';
export const BUILD_ROLE = 'L3.build_verifier';
export const RELEASE_ROLE = 'L2.release_manager';

export interface ProductPins {
  template?: string;
  design?: string;
  deploy?: boolean;
}

export interface PreludeInput {
  ids: JobIds;
  request: string;
  product: ScenarioProduct;
  pins: ProductPins;
  projectName: string;
}

export interface ChosenTemplate {
  id: string;
  build: string;
  test: string;
  publish: string | null;
  feature: string;
}

export type PreludeResult =
  | { outcome: 'refused'; reason: string }
  | {
      outcome: 'ready';
      /** What the levels are told the template and design are, and any clarification the person gave. */
      context: string;
      template: ChosenTemplate;
      designId: string;
      createdFiles: string[];
    };

/**
 * The team lead's pre-run gates, then the template and design: scope (against the workflow's rules; an out-of-scope
 * or borderline request is confirmed by a person or the job ends), clarity (one question when nothing in the request
 * says what to build), the solution chosen among the templates, then template_selected → template_scaffolded →
 * design_selected → design_applied, each selection confirmed by a person when the scenario asks.
 */
export async function runProductPrelude(input: PreludeInput): Promise<PreludeResult> {
  const levelId = workflowInfo().workflowId;
  const emit = createEmitter(input.ids, levelId);
  const people = peopleFor(input.ids, GATE_ROLE, emit);
  const started = await lifecycleStart(emit, GATE_ROLE, levelId);
  const prelude: Prelude = {
    input,
    levelId,
    emit,
    people,
    notes: [],
    finish: (ok, preview) => lifecycleFinish(emit, GATE_ROLE, levelId, started, ok, preview),
  };
  const refuse = async (reason: string): Promise<PreludeResult> => {
    await prelude.finish(true, reason);
    return { outcome: 'refused', reason };
  };

  const outOfScope = input.product.gates.scope ? await checkScope(prelude) : undefined;
  if (outOfScope) return refuse(outOfScope);
  const { template, request } = await chooseTemplate(prelude);
  if (typeof template === 'string') return refuse(template);
  const scaffold = await scaffoldTemplate({
    jobId: input.ids.job_id,
    templateId: template.id,
    projectName: input.projectName,
  });
  await emit(GATE_ROLE, 'template_scaffolded', { level_id: levelId, template_id: template.id, files: scaffold.files });
  for (const file of scaffold.files) await emit(GATE_ROLE, 'file_created', { level_id: levelId, ...file });
  const design = await chooseDesign(prelude, request);
  if (typeof design === 'string') return refuse(design);
  const applied = await applyDesign({ jobId: input.ids.job_id, templateId: template.id, designId: design.id });
  await emit(GATE_ROLE, 'design_applied', {
    level_id: levelId,
    design_id: design.id,
    template_id: template.id,
    path: applied.file.path,
    layout: applied.layout,
    tokens: applied.tokens,
  });
  await emit(GATE_ROLE, 'file_created', { level_id: levelId, ...applied.file });

  const context = [
    `Template: ${template.id} (${template.name}), already scaffolded in the workspace: ${scaffold.files.map((f) => f.path).join(', ')}.`,
    `Where the feature goes: ${scaffold.feature}`,
    `Design: ${design.id} (${applied.layout}), tokens written to ${applied.file.path}; do not edit that file.`,
    `Build: \`${scaffold.build}\`, then \`${scaffold.test}\`, run for real after the executor.`,
    ...prelude.notes,
  ].join('\n');
  await prelude.finish(true, `template ${template.id}, design ${design.id}`);
  return {
    outcome: 'ready',
    context,
    template: {
      id: template.id,
      build: scaffold.build,
      test: scaffold.test,
      publish: scaffold.publish,
      feature: scaffold.feature,
    },
    designId: design.id,
    createdFiles: [...scaffold.files.map((f) => f.path), applied.file.path],
  };
}

/** One prelude run: what its steps share. */
interface Prelude {
  input: PreludeInput;
  levelId: string;
  emit: Emit;
  people: People;
  /** What a person decided along the way, for the levels' context. */
  notes: string[];
  finish(ok: boolean, preview: string): Promise<void>;
}

type Template = Awaited<ReturnType<Activities['selectTemplate']>>;
type Design = Awaited<ReturnType<Activities['selectDesign']>>;

/**
 * The scope gate: the request against the workflow's rules; an out-of-scope or borderline request is built only when
 * a person confirms it. The refusal's reason when the person declines, else undefined.
 */
async function checkScope({ input, levelId, emit, people, notes }: Prelude): Promise<string | undefined> {
  const scope = await checkWorkflowScope({ workflowId: input.ids.workflow_id, request: input.request });
  await emit(GATE_ROLE, 'scope_checked', { level_id: levelId, ...scope });
  if (scope.verdict === 'in_scope') return undefined;
  const question =
    `This request looks ${scope.verdict === 'out_of_scope' ? 'out of scope' : 'borderline'} under the rule ` +
    `"${scope.rule}". Build it anyway? (yes/no)`;
  const { call_id, answer } = await people.ask(question);
  const confirmed = isYes(answer);
  await emit(GATE_ROLE, 'scope_confirmed', { level_id: levelId, call_id, confirmed, answer, rule: scope.rule });
  if (!confirmed) {
    return `not built: the request is ${scope.verdict.replace('_', ' ')} under the rule "${scope.rule}", and the person declined`;
  }
  notes.push(`Scope: confirmed by a person despite the rule "${scope.rule}".`);
  return undefined;
}

/**
 * The template: selected (after one clarifying question when nothing in the request says what to build), the solution
 * among the templates said, and confirmed by a person when the scenario asks. The refusal's reason instead when the
 * person rejects it without naming another; the request as clarified either way.
 */
async function chooseTemplate(prelude: Prelude): Promise<{ template: Template | string; request: string }> {
  const { input, levelId, emit, people } = prelude;
  const { gates } = input.product;
  const pinnedTemplate = input.pins.template ?? input.product.template;
  let request = input.request;
  let template = await selectTemplate({ request, pin: pinnedTemplate });
  if (gates.clarify) {
    const clarified = await clarify(prelude, template);
    if (clarified !== undefined) {
      request = `${request}\nClarification: ${clarified}`;
      template = await selectTemplate({ request, pin: pinnedTemplate });
    }
  }
  if (gates.solutions && template.alternatives.length > 1) {
    await emit(GATE_ROLE, 'solutions_resolved', {
      level_id: levelId,
      chosen: template.id,
      reason: template.reason,
      alternatives: template.alternatives,
    });
  }
  await emit(GATE_ROLE, 'template_selected', {
    level_id: levelId,
    template_id: template.id,
    name: template.name,
    reason: template.reason,
    pinned: pinnedTemplate !== undefined,
    alternatives: template.alternatives,
  });
  if (!input.product.confirm.includes('template')) return { template, request };
  const decision = await people.approve(`use template ${template.id}`, `${template.name}: ${template.reason}`);
  if (decision.approved) return { template, request };
  const other = decision.comment?.trim();
  if (!other || other === template.id)
    return { template: `not built: the person rejected template ${template.id}`, request };
  template = await selectTemplate({ request, pin: other });
  await emit(GATE_ROLE, 'template_selected', {
    level_id: levelId,
    template_id: template.id,
    name: template.name,
    reason: 'chosen by the person who rejected the first choice',
    pinned: true,
    alternatives: template.alternatives,
  });
  return { template, request };
}

/** The clarity gate: one question when nothing in the request says what to build (or it asks for one); the answer. */
async function clarify(
  { input, levelId, emit, people, notes }: Prelude,
  template: Template,
): Promise<string | undefined> {
  const forced = CLARIFY_DIRECTIVE.test(input.request);
  const clear = !forced && !template.undecided;
  const question = clear
    ? undefined
    : 'What should be built: a static web page, a TypeScript library or a Node HTTP service, and what must it include?';
  await emit(GATE_ROLE, 'clarify_checked', {
    level_id: levelId,
    clear,
    reason: clear
      ? `the request points at ${template.id} (${template.reason})`
      : forced
        ? 'the request asked for a clarifying question (#clarify)'
        : 'nothing in the request says what kind of thing to build',
    ...(question ? { question } : {}),
  });
  if (!question) return undefined;
  const { call_id, answer } = await people.ask(question);
  await emit(GATE_ROLE, 'clarify_confirmed', { level_id: levelId, call_id, answer });
  notes.push(`Clarification from the person: ${answer}`);
  return answer;
}

/** The design: selected, and confirmed by a person when the scenario asks; the refusal's reason when rejected. */
async function chooseDesign({ input, levelId, emit, people }: Prelude, request: string): Promise<Design | string> {
  const pinnedDesign = input.pins.design ?? input.product.design;
  let design = await selectDesign({ jobId: input.ids.job_id, request, pin: pinnedDesign });
  await emit(GATE_ROLE, 'design_selected', {
    level_id: levelId,
    design_id: design.id,
    name: design.name,
    reason: design.reason,
    pinned: pinnedDesign !== undefined,
    alternatives: design.alternatives,
  });
  if (!input.product.confirm.includes('design')) return design;
  const decision = await people.approve(`use design ${design.id}`, `${design.name}: ${design.reason}`);
  if (decision.approved) return design;
  const other = decision.comment?.trim();
  if (!other || other === design.id) return `not built: the person rejected design ${design.id}`;
  design = await selectDesign({ jobId: input.ids.job_id, request, pin: other });
  await emit(GATE_ROLE, 'design_selected', {
    level_id: levelId,
    design_id: design.id,
    name: design.name,
    reason: 'chosen by the person who rejected the first choice',
    pinned: true,
    alternatives: design.alternatives,
  });
  return design;
}

/**
 * Runs the template's build and test commands on the job's workspace and reports it: `build_verify_started`, then
 * `build_verify_passed` or `build_verify_failed`. Returns the deltas a failed build sends back to the executor; the
 * `Failed builds: <n>` line tells the executor (and the offline demo model) how many builds failed so far.
 */
export async function verifyProductBuild(
  emit: Emit,
  ids: JobIds,
  template: ChosenTemplate,
  attempt: number,
): Promise<{ ok: true } | { ok: false; deltas: string[] }> {
  const levelId = `${ids.job_id}/${BUILD_ROLE}/${attempt}`;
  await emit(BUILD_ROLE, 'build_verify_started', {
    level_id: levelId,
    attempt,
    template_id: template.id,
    commands: [template.build, template.test],
  });
  const outcome = await runBuildVerification({ jobId: ids.job_id, templateId: template.id });
  const report = {
    level_id: levelId,
    attempt,
    step: outcome.step,
    command: outcome.command,
    exit_code: outcome.exitCode,
    duration_ms: outcome.durationMs,
    output_tail: outcome.outputTail,
    network: outcome.network,
  };
  if (outcome.ok) {
    await emit(BUILD_ROLE, 'build_verify_passed', { ...report, exit_code: 0 });
    return { ok: true };
  }
  await emit(BUILD_ROLE, 'build_verify_failed', { ...report, killed: outcome.killed });
  const lastLines = outcome.outputTail
    .split('\n')
    .filter((l) => l.trim())
    .slice(-12)
    .join('\n');
  return {
    ok: false,
    deltas: [
      `the ${outcome.step} command \`${outcome.command}\` failed (exit ${outcome.exitCode ?? outcome.killed}); fix the files so it passes. Its output ended:\n${lastLines}`,
      `Failed builds: ${attempt}`,
    ],
  };
}

export interface ReleaseInput {
  ids: JobIds;
  template: ChosenTemplate;
  deploy: 'off' | 'auto' | 'approve';
  /** The Vercel project name. */
  name: string;
}

export interface ReleaseResult {
  url?: string;
  /** One line for the job's summary. */
  note: string;
}

/**
 * The release after a verified build: publish the static output to Vercel (after a person approves, when the
 * scenario asks). Without a token, the deploy fails, a human task asks the job's creator to add one, and the deploy
 * is tried once more when the task is completed. A deploy failure is reported, not fatal: the build itself passed.
 */
export async function runProductRelease(input: ReleaseInput): Promise<ReleaseResult> {
  const levelId = workflowInfo().workflowId;
  const emit = createEmitter(input.ids, levelId);
  const people = peopleFor(input.ids, RELEASE_ROLE, emit);
  const started = await lifecycleStart(emit, RELEASE_ROLE, levelId);
  const done = async (result: ReleaseResult) => {
    await lifecycleFinish(emit, RELEASE_ROLE, levelId, started, true, result.note);
    return result;
  };
  if (input.deploy === 'off' || !input.template.publish) {
    return done({ note: input.template.publish ? 'not deployed (deploys are off)' : 'nothing to deploy' });
  }
  if (input.deploy === 'approve') {
    const decision = await people.approve(
      `deploy ${input.name} to Vercel`,
      `publish ${input.template.publish}/ of the verified build`,
    );
    if (!decision.approved) return done({ note: 'not deployed: the person rejected the deploy' });
  }
  let outcome = await deployToVercel({ jobId: input.ids.job_id, templateId: input.template.id, name: input.name });
  if (!outcome.ok && outcome.missingToken) {
    await emit(RELEASE_ROLE, 'vercel_deploy_failed', { level_id: levelId, status: null, message: outcome.message });
    await people.assignTask({
      title: 'Add the Vercel token',
      detail: `${outcome.message}. Then complete this task and the deploy runs again.`,
      dueInHours: 24,
    });
    outcome = await deployToVercel({ jobId: input.ids.job_id, templateId: input.template.id, name: input.name });
  }
  if (!outcome.ok) {
    await emit(RELEASE_ROLE, 'vercel_deploy_failed', {
      level_id: levelId,
      status: outcome.status,
      message: outcome.message,
      ...(outcome.deploymentId ? { deployment_id: outcome.deploymentId } : {}),
    });
    return done({ note: `deploy failed: ${outcome.message}` });
  }
  await emit(RELEASE_ROLE, 'vercel_deployed', {
    level_id: levelId,
    deployment_id: outcome.deploymentId,
    url: outcome.url,
    ready_state: outcome.readyState,
    files: outcome.files,
  });
  await emit(RELEASE_ROLE, 'ui_action', {
    level_id: levelId,
    action: 'open_url',
    target: outcome.url,
    label: 'Open the deployed site',
  });
  return done({ url: outcome.url, note: `deployed to ${outcome.url}` });
}

async function lifecycleStart(emit: Emit, role: string, levelId: string): Promise<string> {
  await emit(role, 'node_started', { node_id: levelId, level_id: levelId, role, attempt: 1 });
  return (await emit(role, 'level_started', { level_id: levelId, role, attempt: 1 })).occurred_at;
}

/** A step composed in code: `level_finished` without provider or model, as the spec wants for gates. */
async function lifecycleFinish(
  emit: Emit,
  role: string,
  levelId: string,
  startedAt: string,
  ok: boolean,
  preview: string,
): Promise<void> {
  await emit(
    role,
    'level_finished',
    {
      level_id: levelId,
      ok,
      attempt: 1,
      duration_ms: 0,
      cost_usd: 0,
      output_preview: preview.slice(0, 280),
      deterministic: true,
    },
    { durationSince: startedAt },
  );
  await emit(role, 'node_finished', { node_id: levelId, level_id: levelId, ok });
}
