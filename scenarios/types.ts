import type { Rung } from '../routing/catalog/types';

/**
 * A scenario: a named, validated list of levels (scenarios/*.yaml, parsed by scenarios/load.ts). Workflows
 * receive it as data from an activity, so a job keeps the scenario it started with even if files change.
 */
export interface Scenario {
  name: string;
  description: string;
  levels: ScenarioLevel[];
  /** A follow-up scenario the same job is re-dispatched to after this one succeeds (`scenario_chained`). */
  chain?: { scenario: string };
}

/** Tools a level may be offered; the executor's file tools, and the human-input and knowledge tools any level may use. */
export type LevelTool = 'write_file' | 'edit_file' | 'ask_user' | 'request_approval' | 'kb_search';

export interface ScenarioLevel {
  /** `L1.team_lead`, `L2.architect`, `L2.tech_lead`, `L2.release_manager`, `L2.qa_lead`, `L2.security_lead`,
   * `L2.adversarial_lead`, `L3.verifier`, `L4.executor`, … */
  role: string;
  /** Named requirement sets matched against model features (routing). */
  requirements?: string[];
  effort?: Rung;
  /** Model allow list (`provider/model`, globs, `@rung`); never narrowed by the budget band. */
  pins?: string[];
  /** Appended to the level's candidates (`provider/model[@rung]`). */
  fallback?: string[];
  /** The level's brief, a template: `{{request}}` is the user's request, `{{context}}` earlier levels' outputs. */
  prompt: string;
  tools?: LevelTool[];
  /** Composed in code, no LLM call (`level_finished.deterministic: true`). */
  deterministic?: boolean;
}
