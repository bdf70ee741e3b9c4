/**
 * The shapes of the model catalog and team controls, and of routing's inputs and outputs.
 * The zod schemas in schema.ts produce exactly these types; every other routing module codes against them.
 */
import { RUNGS, type Rung } from '../../pure/rungs';

export const WIRES = ['chat_compat', 'vendor_a', 'vendor_b'] as const;
export type Wire = (typeof WIRES)[number];

/** Cost tiers, cheapest first. */
export const TIERS = ['free', 'cheap', 'mid', 'frontier'] as const;
export type Tier = (typeof TIERS)[number];

/** Effort rungs, weakest first: defined in pure/ because workflow code compares them too. */
export { RUNGS, type Rung };

/** `embedding` marks an embedding model (which must declare `dimensions`). */
export const FEATURES = [
  'tool_use',
  'reasoning',
  'vision',
  'json_mode',
  'streaming',
  'server_tools',
  'embedding',
] as const;
export type Feature = (typeof FEATURES)[number];

/** How a provider's key is found: env wins over the secrets store when both are given and the env var is set. */
export interface ProviderAuth {
  env?: string;
  secret_id?: string;
}

export interface ProviderEntry {
  wire: Wire;
  /** Base URL of the wire's API, e.g. https://api.openai.com/v1 (chat_compat), https://api.anthropic.com (vendor_a). */
  base_url: string;
  /** Absent for providers that need no key (the offline demo model, a local server). */
  auth?: ProviderAuth;
}

export interface ModelRow {
  provider: string;
  /** The vendor's model id as sent on the wire. */
  model: string;
  wire: Wire;
  features: Feature[];
  cost_tier: Tier;
  /**
   * USD per 1,000 tokens; required for every non-free model. `cached_input`: input read from the vendor's prompt cache
   * (absent: priced as `input`); `cache_write`: input written to it where the vendor charges for that (Anthropic's
   * 5-minute cache write; absent: priced as `input`).
   */
  pricing_per_1k?: { input: number; output: number; cached_input?: number; cache_write?: number };
  context_tokens: number;
  max_output_tokens: number;
  /** Required for free models: requests per minute, tokens per minute, requests per day. */
  quota?: { rpm: number; tpm: number; rpd: number };
  /** Rung → the vendor's request-body fragment (a thinking budget, an effort enum or a boolean). Requires feature `reasoning`. */
  effort?: Partial<Record<Rung, Record<string, unknown>>>;
  /** Ordering within a tier: lower comes first. Unset sorts after every set value. */
  preference?: number;
  /** Required for embedding models. */
  dimensions?: number;
  /** Anthropic-style manual thinking budget; must be below max_output_tokens. */
  thinking?: { budget_tokens: number };
  /** Display name for people (GET /v1/models, events); defaults to `model`. */
  display_name?: string;
  /** ISO date the price and features were checked against the vendor's published page. */
  checked?: string;
}

export interface Catalog {
  providers: Record<string, ProviderEntry>;
  models: ModelRow[];
}

/** The team's permission file: a provider absent here is removed from every candidate list, silently. */
export interface TeamControls {
  providers: Record<
    string,
    {
      /** Glob patterns over model ids this team may use; absent means every model of the provider. */
      models?: string[];
    }
  >;
}

/** Named requirement sets a level may declare (the spec's table). */
export const REQUIREMENTS = ['long_context', 'high_reasoning', 'code_generation', 'multimodal', 'fast_cheap'] as const;
export type Requirement = (typeof REQUIREMENTS)[number];

/** What one level asks of routing. Every field but `role` is optional. */
export interface LevelRouting {
  /** e.g. `L4.executor`; its `L<n>.` prefix selects the budget band. An unknown role means no band, never an error. */
  role: string;
  /** The job's `model_tier`: `free`, `cheap` (default when absent) or `frontier`; unknown → no band. */
  budget?: string;
  requirements?: string[];
  /** The level's effort constraint; wins over a `@rung` suffix and the tier default. */
  effort?: Rung;
  /** An allow list (`provider/model` or `model`, glob allowed, optional `@rung` suffix); a band never narrows it. */
  pins?: string[];
  /** Scenario `fallback:` entries (`provider/model[@rung]`), appended after the band's candidates. */
  fallbacks?: string[];
}

export type CandidateSource = 'band' | 'pin' | 'fallback' | 'provider_default';

export interface Candidate {
  provider: string;
  model: string;
  tier: Tier;
  /** The rung actually sent after the ladder (undefined: no effort fragment is sent). */
  effort?: Rung;
  /** The rung the level asked for, before the ladder. */
  requested_effort?: Rung;
  source: CandidateSource;
  /** The catalog row's display name, filled in by the router for events and people. */
  display_name?: string;
}

export interface Resolution {
  /** Strongest-first (or cheapest-first) order the walk tries. */
  candidates: Candidate[];
  /** The band's tiers, leading tier first; null when the role or budget gave no band. */
  band: Tier[] | null;
  /** True when nothing survived the band and it was dropped. */
  bandDropped: boolean;
  /** Log lines the caller writes (band dropped, effort dropped, unknown tier/role, unknown requirement). */
  notes: string[];
}
