import path from 'node:path';
import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';
import { projectRoot } from '../config/paths';
import { loadCatalog, loadTeamControls } from './catalog/load';
import type { Catalog, TeamControls } from './catalog/types';

/** The shipped catalog and team controls: the defaults of MODEL_CATALOG_PATH and TEAM_CONTROLS_PATH. */
export function shippedModelFiles(): { catalog: string; controls: string } {
  const dir = path.join(projectRoot(), 'config', 'models');
  return { catalog: path.join(dir, 'catalog.yaml'), controls: path.join(dir, 'team-controls.yaml') };
}

const absolutePath = (name: string) =>
  z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine((p) => path.isAbsolute(p), `${name} must be an absolute path`)
      .optional(),
  );

/** Where the model catalog and the team's permissions come from; both load at boot and a missing file stops it. */
export const modelEnv = z.object({
  /** Absolute path of the catalog (YAML or JSON); defaults to the shipped config/models/catalog.yaml. */
  MODEL_CATALOG_PATH: absolutePath('MODEL_CATALOG_PATH'),
  /** Absolute path of the team controls; defaults to the shipped config/models/team-controls.yaml. */
  TEAM_CONTROLS_PATH: absolutePath('TEAM_CONTROLS_PATH'),
  /** Loopback port of the offline demo model; 0 picks a free one. */
  DEMO_MODEL_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /**
   * Pause (ms) between the offline demo model's streamed chunks (a word of text, 24 characters of tool arguments),
   * so a job run with no key shows its output arriving; 0 streams at once.
   */
  DEMO_MODEL_CHUNK_MS: z.coerce.number().int().min(0).max(10_000).default(30),
  /** `0` (or `false`): model calls do not stream and no live output is published (docs/live-output.md). */
  KEEL_LIVE_OUTPUT: z
    .preprocess(emptyAsUndefined, z.enum(['0', '1', 'false', 'true']).optional())
    .transform((value) => value !== '0' && value !== 'false'),
  /** A streamed model call that sends nothing for this long (ms) fails as unavailable and the walk moves on. */
  KEEL_STREAM_STALL_MS: z.coerce.number().int().min(100).max(600_000).default(120_000),
});
export type ModelEnv = z.infer<typeof modelEnv>;

export function modelFilePaths(env: ModelEnv): { catalog: string; controls: string } {
  const shipped = shippedModelFiles();
  return { catalog: env.MODEL_CATALOG_PATH ?? shipped.catalog, controls: env.TEAM_CONTROLS_PATH ?? shipped.controls };
}

/** The model slice of a process's config: the loaded catalog and team controls and the keys their providers name. */
export interface ModelsConfig {
  paths: { catalog: string; controls: string };
  catalog: Catalog;
  controls: TeamControls;
  /** The values of the variables the catalog's providers name in `auth.env` (only those), as the process got them. */
  credentials: Readonly<Record<string, string | undefined>>;
  demoModelPort: number;
  demoChunkMs: number;
  liveOutput: { enabled: boolean; stallMs: number };
}

/**
 * Loads the files MODEL_CATALOG_PATH and TEAM_CONTROLS_PATH name (a missing or invalid file is a bad configuration:
 * ConfigFileError) and takes the provider keys the catalog names from `env`. Called by a process's loadConfig.
 */
export async function loadModelsConfig(slice: ModelEnv, env: NodeJS.ProcessEnv): Promise<ModelsConfig> {
  const paths = modelFilePaths(slice);
  const catalog = await loadCatalog(paths.catalog);
  const controls = await loadTeamControls(paths.controls);
  const credentials: Record<string, string | undefined> = {};
  for (const entry of Object.values(catalog.providers)) {
    if (entry.auth?.env !== undefined) credentials[entry.auth.env] = env[entry.auth.env];
  }
  return {
    paths,
    catalog,
    controls,
    credentials,
    demoModelPort: slice.DEMO_MODEL_PORT,
    demoChunkMs: slice.DEMO_MODEL_CHUNK_MS,
    liveOutput: { enabled: slice.KEEL_LIVE_OUTPUT, stallMs: slice.KEEL_STREAM_STALL_MS },
  };
}
