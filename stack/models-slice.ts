import { ConfigFileError } from '../config/config-file';
import { loadModelsConfig, modelFilePaths, type ModelEnv, type ModelsConfig } from '../routing/config';

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
