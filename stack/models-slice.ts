import type { z } from 'zod';
import { ConfigFileError } from '../config/config-file';
import { configError, parseSlices } from '../config/parse-env';
import { loadModelsConfig, modelFilePaths, type modelEnv, type ModelEnv, type ModelsConfig } from '../routing/config';

/**
 * The model slice of a process's config: the catalog and team controls the slice names, loaded and checked, with the
 * keys they name. A file that cannot be used adds its problems to `problems` under the variable that names it.
 */
export async function modelsSlice(
  slice: ModelEnv | undefined,
  env: NodeJS.ProcessEnv,
  problems: string[],
): Promise<ModelsConfig | undefined> {
  if (!slice) return undefined;
  try {
    return await loadModelsConfig(slice, env);
  } catch (err) {
    if (!(err instanceof ConfigFileError)) throw err;
    const variable = err.file === modelFilePaths(slice).catalog ? 'MODEL_CATALOG_PATH' : 'TEAM_CONTROLS_PATH';
    const [first] = err.message.split('\n');
    problems.push(`  ${variable}: ${first}`, ...err.problems.map((line) => `    ${line}`));
    return undefined;
  }
}

/**
 * Parses every slice of a process that routes models (`slices.models` is the model slice) and loads the catalog and
 * team controls it names; every bad variable and file of every slice in one error, else every slice's value.
 */
export async function loadSlicesWithModels<S extends Record<string, z.ZodType> & { models: typeof modelEnv }>(
  processName: string,
  slices: S,
  env: NodeJS.ProcessEnv,
): Promise<{ [K in keyof S]: K extends 'models' ? ModelsConfig : z.output<S[K]> }> {
  const { values, problems } = parseSlices(slices, env);
  const models = await modelsSlice(values.models, env, problems);
  // A slice that did not parse left a problem, so with none every slice has its value.
  if (problems.length > 0 || !models) throw configError(processName, problems);
  return { ...values, models } as { [K in keyof S]: K extends 'models' ? ModelsConfig : z.output<S[K]> };
}
