/** The scenario a `#build` prompt runs when the job names none. */
export const PRODUCT_SCENARIO = 'product';
/** The scenario a job runs when nothing names one. */
export const DEFAULT_SCENARIO_NAME = 'build';
const BUILD_DIRECTIVE = /(?<![\w#-])#build(?![\w#=-])/i;

/** True when the prompt asks for a product build with `#build` (a demo directive that works with any model). */
export function wantsProductBuild(prompt: string): boolean {
  return BUILD_DIRECTIVE.test(prompt);
}

/**
 * The scenario a job for `prompt` starts with: `#build` asks for a product build unless the job names a scenario other
 * than the default. The job workflow decides with this, and the submission records the same name on a new workflow,
 * so the workflow's page and agent graph name what its job ran.
 */
export function firstScenarioFor(prompt: string, named: string | undefined): string {
  const scenario = named ?? DEFAULT_SCENARIO_NAME;
  return wantsProductBuild(prompt) && scenario === DEFAULT_SCENARIO_NAME ? PRODUCT_SCENARIO : scenario;
}
