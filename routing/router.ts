import { adapterFor } from './adapters';
import type { LiveCall } from './live-call';
import type { Candidate, Catalog, LevelRouting, ModelRow, Resolution, TeamControls } from './catalog/types';
import { allowedByControls } from './catalog/controls';
import type { ChatMessage, ToolDefinition } from './chat-types';
import { DEMO_PROVIDER } from './demo-endpoint';
import { dispatch, type CallOutcome, type DispatchDeps } from './dispatch';
import type { createQuotaLedger } from './ledger';
import { resolveCandidates } from './resolve/resolve';

export interface RouteDecision extends Resolution {
  /** True when no configured provider could serve the level and the offline demo model stands in. */
  offline: boolean;
}

export interface ModelListing {
  provider: string;
  model: string;
  display_name: string;
  wire: string;
  features: string[];
  cost_tier: string;
  pricing_per_1k: { input: number; output: number; cached_input?: number; cache_write?: number } | null;
  context_tokens: number;
  max_output_tokens: number;
  effort_rungs: string[];
  /** Live free-tier usage from the ledger (same counters the walk spends), null for paid models. */
  quota: null | Record<'rpm' | 'tpm' | 'rpd', { used: number; limit: number; reset_ms: number }>;
  /** Credentials resolvable (or none needed). */
  configured: boolean;
  /** Permitted by team controls. */
  allowed: boolean;
}

/** The one module every LLM call goes through: resolution, the walk, and the catalog as people see it. */
export interface ModelRouter {
  resolve(level: LevelRouting): RouteDecision;
  call(request: {
    candidates: Candidate[];
    messages: ChatMessage[];
    tools?: ToolDefinition[];
    signal?: AbortSignal;
    /** Stream the call's output here (events/live-output.ts); without it the call is not streamed. */
    live?: LiveCall;
    stallMs?: number;
  }): Promise<CallOutcome>;
  list(): Promise<ModelListing[]>;
}

export interface RouterDeps {
  catalog: Catalog;
  controls: TeamControls;
  /** Providers whose credentials resolve (or need none). */
  configured: ReadonlySet<string>;
  /** A provider's credential as it is now (routing/open-models.ts reads it from env or the secrets store). */
  keyOf(provider: string): Promise<string | undefined>;
  ledger: ReturnType<typeof createQuotaLedger>;
  flags: DispatchDeps['flags'];
  log: (line: string) => void;
}

function demoCandidate(catalog: Catalog): Candidate | undefined {
  const row = catalog.models.find((m) => m.provider === DEMO_PROVIDER);
  return row && { provider: row.provider, model: row.model, tier: row.cost_tier, source: 'provider_default' };
}

/**
 * Resolution sees only configured providers, so a walk never tries a provider it has no key for; the
 * offline demo model is not part of normal routing and stands in only when nothing configured can serve
 * the level (a fresh `npm start` with no keys), unless a level pins it explicitly.
 */
export function createModelRouter(deps: RouterDeps): ModelRouter {
  const routable: Catalog = {
    providers: deps.catalog.providers,
    models: deps.catalog.models.filter((m) => deps.configured.has(m.provider) && m.provider !== DEMO_PROVIDER),
  };
  const pinnable: Catalog = {
    providers: deps.catalog.providers,
    models: deps.catalog.models.filter((m) => deps.configured.has(m.provider)),
  };

  const named = (resolution: Resolution): Resolution => ({
    ...resolution,
    candidates: resolution.candidates.map((c) => {
      const row = deps.catalog.models.find((m) => m.provider === c.provider && m.model === c.model);
      return { ...c, display_name: row?.display_name ?? c.model };
    }),
  });

  function decide(level: LevelRouting): RouteDecision {
    const resolution = named(resolveCandidates(level.pins?.length ? pinnable : routable, deps.controls, level));
    if (resolution.candidates.length > 0) return { ...resolution, offline: false };
    const demo = demoCandidate(deps.catalog);
    if (!demo) return { ...resolution, offline: false };
    return {
      ...resolution,
      candidates: named({ ...resolution, candidates: [demo] }).candidates,
      offline: true,
      notes: [
        ...resolution.notes,
        `${level.role}: no configured provider can serve this level; using the offline demo model`,
      ],
    };
  }

  // The catalog, controls and keys are fixed for the router's life, so a decision depends only on the level's
  // routing input: every level of every job resolves one of a few of them, each once per process.
  const decisions = new Map<string, RouteDecision>();

  return {
    resolve(level) {
      const key = routingKey(level);
      let decision = decisions.get(key);
      if (!decision) {
        decision = decide(level);
        // Bounded for a process resolving unbounded distinct inputs (scenarios with ever-new pins): start over.
        if (decisions.size >= maxCachedDecisions) decisions.clear();
        decisions.set(key, decision);
      }
      return copyOf(decision);
    },
    call: (request) =>
      dispatch(
        {
          catalog: deps.catalog,
          keyOf: (provider) => deps.keyOf(provider),
          adapterFor,
          ledger: deps.ledger,
          flags: deps.flags,
          log: deps.log,
        },
        request,
      ),
    async list() {
      return Promise.all(deps.catalog.models.map((row) => listing(deps, row)));
    },
  };
}

async function listing(deps: RouterDeps, row: ModelRow): Promise<ModelListing> {
  const usage = row.quota ? await deps.ledger.usage(`${row.provider}/${row.model}`, row.quota) : null;
  return {
    provider: row.provider,
    model: row.model,
    display_name: row.display_name ?? row.model,
    wire: row.wire,
    features: row.features,
    cost_tier: row.cost_tier,
    pricing_per_1k: row.pricing_per_1k ?? null,
    context_tokens: row.context_tokens,
    max_output_tokens: row.max_output_tokens,
    effort_rungs: Object.keys(row.effort ?? {}),
    quota: usage && {
      rpm: { used: usage.rpm.used, limit: usage.rpm.limit, reset_ms: usage.rpm.resetMs },
      tpm: { used: usage.tpm.used, limit: usage.tpm.limit, reset_ms: usage.tpm.resetMs },
      rpd: { used: usage.rpd.used, limit: usage.rpd.limit, reset_ms: usage.rpd.resetMs },
    },
    configured: deps.configured.has(row.provider),
    allowed: allowedByControls(deps.controls, row.provider, row.model),
  };
}

/** Distinct routing inputs a router remembers decisions for. */
const maxCachedDecisions = 1_000;

/** Every field of a level that resolution reads, in a fixed order (two equal levels give one key). */
function routingKey(level: LevelRouting): string {
  return JSON.stringify([
    level.role,
    level.budget ?? null,
    level.requirements ?? null,
    level.effort ?? null,
    level.pins ?? null,
    level.fallbacks ?? null,
  ]);
}

/** A decision the caller may change freely without changing the one remembered. */
function copyOf(decision: RouteDecision): RouteDecision {
  return {
    ...decision,
    candidates: decision.candidates.map((c) => ({ ...c })),
    band: decision.band && [...decision.band],
    notes: [...decision.notes],
  };
}
