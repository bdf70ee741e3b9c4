import path from 'node:path';
import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';
import { projectRoot } from '../config/paths';

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
});
export type ModelEnv = z.infer<typeof modelEnv>;

export function modelFilePaths(env: ModelEnv): { catalog: string; controls: string } {
  const shipped = shippedModelFiles();
  return { catalog: env.MODEL_CATALOG_PATH ?? shipped.catalog, controls: env.TEAM_CONTROLS_PATH ?? shipped.controls };
}
