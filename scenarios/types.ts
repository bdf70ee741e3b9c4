/**
 * The scenario types, inferred from their zod schemas in schema.ts. Workflow code imports them from here with
 * `import type`, so it never loads the schema (or zod) at run time.
 */
export type { LevelTool, Scenario, ScenarioLevel, ScenarioProduct } from './schema';
