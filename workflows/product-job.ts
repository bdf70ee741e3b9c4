/**
 * What a job does differently when its scenario builds a product (`product:` in the scenario file): before the
 * scenario's levels, the prelude child (gates, template, design); between the executor and the verifier, the real
 * build; after the levels, the release child (deploy, human task). Kept out of job.ts so the job's own loop changes
 * only where these hook in.
 */
import { executeChild, workflowInfo } from '@temporalio/workflow';
import { KEEL_KIND, KEEL_STATUS } from '../pure/search-attributes';
import type { Scenario } from '../scenarios/types';
import type { JobInput } from './definitions';
import type { Emit } from './emit';
import {
  GATE_ROLE,
  RELEASE_ROLE,
  runProductPrelude,
  runProductRelease,
  verifyProductBuild,
  type ChosenTemplate,
  type ReleaseResult,
} from './product-build';

// In pure/ so the submission records the scenario the job will run on the workflow it creates.
export { PRODUCT_SCENARIO, wantsProductBuild } from '../pure/build-directive';

/** A readable project name from the request: `… for a bakery` → `Bakery`; else the project slug, else `My project`. */
export function projectNameFor(request: string, projectSlug?: string): string {
  const named =
    /\bfor\s+(?:a|an|the|my|our)?\s*([A-Za-z][\w' -]{1,40}?)(?=\s+(?:that|with|which|who|in|to)\b|[.,#\n]|$)/i.exec(
      request,
    )?.[1];
  const words = (named ?? projectSlug?.replace(/-/g, ' ') ?? 'my project').trim().split(/\s+/);
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

export function productBuildFor(input: JobInput, emit: Emit) {
  const jobId = input.ids.job_id;
  const projectName = projectNameFor(input.prompt, input.projectSlug);
  let template: ChosenTemplate | undefined;
  let builds = 0;
  let failedBuilds = 0;
  const childOptions = (id: string) => ({
    workflowId: id,
    typedSearchAttributes: workflowInfo().typedSearchAttributes.updateCopy([
      { key: KEEL_STATUS, value: null },
      { key: KEEL_KIND, value: 'level' },
    ]),
  });

  return {
    /**
     * The prelude, once per job: the earlier output the levels see (template, design, clarification) and the files
     * it wrote, or the reason the job ends without building (a person declined).
     */
    async before(
      scenario: Scenario,
    ): Promise<
      { refused: string } | { refused?: undefined; context: { role: string; output: string }; files: string[] }
    > {
      const result = await executeChild(runProductPrelude, {
        ...childOptions(`${jobId}/${GATE_ROLE}/prelude`),
        args: [
          {
            ids: input.ids,
            request: input.prompt,
            product: scenario.product!,
            pins: input.product ?? {},
            projectName,
          },
        ],
      });
      if (result.outcome === 'refused') return { refused: result.reason };
      template = result.template;
      return {
        context: { role: `${GATE_ROLE} (template and design)`, output: result.context },
        files: result.createdFiles,
      };
    },

    /** The real build after an executor, when the scenario verifies builds; `ok: true` when it does not. */
    async verify(scenario: Scenario): Promise<{ ok: true } | { ok: false; deltas: string[]; levelId: string }> {
      if (!template || !scenario.product?.build_verify) return { ok: true };
      builds += 1;
      const outcome = await verifyProductBuild(emit, input.ids, template, builds);
      if (!outcome.ok) failedBuilds += 1;
      return outcome.ok ? outcome : { ...outcome, levelId: `${jobId}/L3.build_verifier/${builds}` };
    },

    /**
     * What an executor is told about earlier builds of this job even when no deltas are pending (after an
     * escalation, the re-issued task starts clean, but the build still failed before).
     */
    buildHistory(): Array<{ role: string; output: string }> {
      return failedBuilds > 0
        ? [{ role: 'L3.build_verifier (history)', output: `Failed builds: ${failedBuilds}` }]
        : [];
    },

    /** The release after the scenario's levels: deploy per the scenario, or the job's `deploy` pin. */
    async after(scenario: Scenario): Promise<ReleaseResult | undefined> {
      if (!template || !scenario.product) return undefined;
      const pinned = input.product?.deploy;
      const deploy = pinned === undefined ? scenario.product.deploy : pinned ? 'auto' : 'off';
      return executeChild(runProductRelease, {
        ...childOptions(`${jobId}/${RELEASE_ROLE}/release`),
        args: [{ ids: input.ids, template, deploy, name: slugOf(projectName) }],
      });
    },
  };
}

/** A Vercel project name: lowercase letters, digits and single dashes. */
function slugOf(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 90) || 'keel-site'
  );
}
