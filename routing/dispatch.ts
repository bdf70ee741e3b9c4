import type { AdapterReply, OutputPiece, WireAdapter } from './adapters/types';
import type { LiveCall } from './live-call';
import { ProviderCallError } from './adapters/types';
import { StreamStalled } from './adapters/stall-watch';
import type { Candidate, Catalog, ModelRow, Rung, Wire } from './catalog/types';
import type { ChatMessage, ToolDefinition } from './chat-types';
import {
  freeQuota,
  llmCallSeconds,
  llmCalls,
  llmCostUsd,
  llmFallbacks,
  llmPromptEstimate,
  llmTokens,
} from '../metrics/series';
import { redactSecret } from '../secrets/redact';
import { inSpan } from '../telemetry/spans';
import { remainingAfter } from './walk-order';
import { ContextTooSmall, fitToWindow } from './context-fit';

/** How long an unfunded provider is skipped, across every replica (the spec's "about 30 minutes"). */
export const UNFUNDED_SKIP_MS = 30 * 60 * 1000;
/** Cooldown after a 429 without Retry-After. */
export const DEFAULT_COOLDOWN_MS = 30 * 1000;

/** What the walk needs of the free-quota ledger (routing/ledger.ts implements it over the queue store). */
export interface LedgerPort {
  /**
   * One store round trip before each call: refused when a flag of `unlessFlags` is set or the model is cooling
   * down, else (with a quota) the request's windows are reserved all or nothing. Never throws (fails open).
   */
  admit(
    modelKey: string,
    quota: { rpm: number; tpm: number; rpd: number } | undefined,
    estimatedTokens: number,
    unlessFlags: readonly string[],
  ): Promise<
    | { outcome: 'admitted'; reservation?: unknown }
    | { outcome: 'flagged'; flag: string }
    | { outcome: 'cooling_down' }
    | { outcome: 'quota_spent'; dimension: string; retryAfterMs: number }
  >;
  settle(reservation: unknown, actualTokens: number): Promise<void>;
  cooldown(modelKey: string, ms: number): Promise<void>;
}

export interface DispatchDeps {
  catalog: Catalog;
  /**
   * A provider's credential, looked up for each call (undefined: none needed, or none configured), so a rotated
   * secret is used from the next call on.
   */
  keyOf(provider: string): Promise<string | undefined>;
  adapterFor(wire: Wire): WireAdapter;
  ledger: LedgerPort;
  /** Shared flags (queue store) so an unfunded provider is skipped by every replica; the ledger's `admit` reads them. */
  flags: { setFlag(key: string, ttlMs: number): Promise<void> };
  log: (line: string) => void;
}

export interface Hop {
  from_model: string;
  to_model: string;
  to_provider: string;
  reason: string;
}

export interface CallOutcome {
  provider: string;
  /** The model id the vendor reported; `candidateModel` is the catalog row that was called. */
  model: string;
  candidateModel: string;
  tier: string;
  /** The rung sent (after the ladder) and the rung the level asked for. */
  effort?: Rung;
  requestedEffort?: Rung;
  reply: AdapterReply;
  costUsd: number;
  /** The prompt as estimated before the call, after fitting it to the model's window (routing/context-fit.ts). */
  prompt: { estimatedTokens: number; cut: number; dropped: number };
  /** One per transition away from a candidate that did not answer; the workflow emits model_fallback for each. */
  hops: Hop[];
}

/** Every candidate failed or was skipped. `permanent` when retrying later cannot help (auth, bad requests). */
export class NoCandidateAnswered extends Error {
  override name = 'NoCandidateAnswered';
  constructor(
    readonly attempts: Array<{ provider: string; model: string; reason: string }>,
    readonly permanent: boolean,
  ) {
    super(
      attempts.length === 0
        ? 'no model candidate to call'
        : `no model answered: ${attempts.map((a) => `${a.provider}/${a.model} (${a.reason})`).join('; ')}`,
    );
  }
}

/** Raised (as the walk's final error) when every candidate's account was unfunded. */
export class ProviderUnfunded extends NoCandidateAnswered {
  override name = 'ProviderUnfunded';
}

export function unfundedFlag(provider: string): string {
  return `provider:${provider}:unfunded`;
}

function modelKey(c: { provider: string; model: string }): string {
  return `${c.provider}/${c.model}`;
}

/** A deliberately high token estimate for the tpm reservation: ~3 characters a token, plus the whole output budget. */
function estimateTokens(messages: ChatMessage[], tools: ToolDefinition[] | undefined, row: ModelRow): number {
  const chars = JSON.stringify(messages).length + (tools ? JSON.stringify(tools).length : 0);
  return Math.ceil(chars / 3) + row.max_output_tokens;
}

/**
 * The catalog's price wins. A model the catalog prices at nothing (the offline demo model, a local server, a free
 * model) costs what its server reports, if it reports anything: the demo model's `#cost=` directive, a free model's 0.
 */
function cost(row: ModelRow, reply: AdapterReply): number {
  if (!row.pricing_per_1k) return reply.reportedCostUsd ?? 0;
  const { input, output, cached_input = input, cache_write = input } = row.pricing_per_1k;
  const cached = reply.usage.cachedInputTokens ?? 0;
  const written = reply.usage.cacheWriteTokens ?? 0;
  const fresh = Math.max(0, reply.usage.inputTokens - cached - written);
  return (fresh * input + cached * cached_input + written * cache_write + reply.usage.outputTokens * output) / 1000;
}

function observeCall(series: { provider: string; model: string }, startedMs: number, outcome: string): void {
  llmCalls.inc({ ...series, outcome });
  llmCallSeconds.observe(series, (performance.now() - startedMs) / 1000);
}

/**
 * Walks the candidates until one answers. Before a call: a provider refused with 401/403 earlier in
 * this walk is dead; an unfunded provider is skipped for UNFUNDED_SKIP_MS on every replica; a model
 * cooling down after a 429 is skipped; a free model whose quota window is spent is skipped (not a
 * health failure). After a failure the walk goes to the same provider's next model, then the other
 * providers, then provider defaults. Cancellation (the signal) is rethrown untouched.
 */
export async function dispatch(
  deps: DispatchDeps,
  request: {
    candidates: Candidate[];
    messages: ChatMessage[];
    tools?: ToolDefinition[];
    signal?: AbortSignal;
    /** When set, the call streams and each candidate called is an attempt on this live output. */
    live?: LiveCall;
    /** A streamed call silent this long fails as unavailable (routing/adapters/stall-watch.ts). */
    stallMs?: number;
  },
): Promise<CallOutcome> {
  const dead = new Set<string>();
  const attempts: Array<{ provider: string; model: string; reason: string }> = [];
  const hops: Hop[] = [];
  let permanent = true;
  let allUnfunded = true;
  let previous: { candidate: Candidate; reason: string } | undefined;
  let queue = [...request.candidates];

  /**
   * Records a candidate that did not answer. The next hop starts from the last model actually tried,
   * or from the intended (first) model when it was skipped before any request was made.
   */
  const passOver = (candidate: Candidate, reason: string, isPermanent: boolean, requested: boolean) => {
    attempts.push({ provider: candidate.provider, model: candidate.model, reason });
    if (!isPermanent) permanent = false;
    if (reason !== 'provider_unfunded') allUnfunded = false;
    if (requested || !previous) previous = { candidate, reason };
    queue = remainingAfter(candidate, queue);
  };

  while (queue.length > 0) {
    const candidate = queue.shift()!;
    const row = deps.catalog.models.find((m) => m.provider === candidate.provider && m.model === candidate.model);
    const provider = deps.catalog.providers[candidate.provider];
    if (!row || !provider) {
      passOver(candidate, 'not_in_catalog', true, false);
      continue;
    }
    if (dead.has(candidate.provider)) {
      passOver(candidate, 'provider_auth_refused', true, false);
      continue;
    }
    let prompt: ReturnType<typeof fitToWindow>;
    try {
      prompt = fitToWindow(request.messages, request.tools, row);
    } catch (err) {
      if (!(err instanceof ContextTooSmall)) throw err;
      deps.log(`${modelKey(candidate)}: ${err.message}`);
      passOver(candidate, 'context_window_exceeded', true, false);
      continue;
    }
    const admitted = await deps.ledger.admit(
      modelKey(candidate),
      row.quota,
      row.quota ? estimateTokens(prompt.messages, request.tools, row) : 0,
      [unfundedFlag(candidate.provider)],
    );
    if (admitted.outcome === 'flagged') {
      passOver(candidate, 'provider_unfunded', false, false);
      continue;
    }
    if (admitted.outcome === 'cooling_down') {
      passOver(candidate, 'rate_limited_cooldown', false, false);
      continue;
    }
    if (row.quota) {
      freeQuota.inc({
        provider: candidate.provider,
        outcome: admitted.outcome === 'admitted' ? 'granted' : `denied_${admitted.dimension}`,
      });
    }
    if (admitted.outcome === 'quota_spent') {
      passOver(candidate, `free_quota_spent:${admitted.dimension}`, false, false);
      continue;
    }
    const reservation = admitted.reservation;

    if (previous) {
      llmFallbacks.inc({ reason: previous.reason.replace(/:.*/, '') });
      hops.push({
        from_model: previous.candidate.model,
        to_model: candidate.model,
        to_provider: candidate.provider,
        reason: previous.reason,
      });
    }
    const series = { provider: candidate.provider, model: candidate.model };
    const callStarted = performance.now();
    let apiKey: string | undefined;
    // Each candidate called streams as an attempt of its own; a failure after some output discards it.
    const live = request.live?.begin({ provider: candidate.provider, model: candidate.model });
    try {
      apiKey = await deps.keyOf(candidate.provider);
      // One span per provider call (a walk that falls back has several), a child of the callModel activity's.
      const reply = await inSpan(
        'model call',
        { 'llm.provider': candidate.provider, 'llm.model': candidate.model, 'llm.wire': row.wire },
        async (span) => {
          const answer = await deps.adapterFor(row.wire).call({
            providerName: candidate.provider,
            provider,
            model: row,
            apiKey,
            messages: prompt.messages,
            tools: request.tools,
            effortFragment: candidate.effort ? row.effort?.[candidate.effort] : undefined,
            signal: request.signal,
            ...(live ? { onPiece: (piece: OutputPiece) => live.piece(piece), stallMs: request.stallMs } : {}),
          });
          span.setAttributes({
            'llm.usage.input_tokens': answer.usage.inputTokens,
            'llm.usage.output_tokens': answer.usage.outputTokens,
          });
          return answer;
        },
      );
      live?.end();
      observeCall(series, callStarted, 'ok');
      llmTokens.inc({ ...series, kind: 'input' }, reply.usage.inputTokens);
      llmTokens.inc({ ...series, kind: 'output' }, reply.usage.outputTokens);
      llmCostUsd.inc(series, cost(row, reply));
      llmTokens.inc({ ...series, kind: 'cached_input' }, reply.usage.cachedInputTokens ?? 0);
      llmPromptEstimate.inc(series, prompt.estimatedTokens);
      // The estimate is meant to be high; one under the vendor's count could let a prompt overflow the window.
      if (reply.usage.inputTokens > prompt.estimatedTokens) {
        deps.log(
          `${modelKey(candidate)}: prompt estimated at ${prompt.estimatedTokens} tokens, the vendor counted ${reply.usage.inputTokens}`,
        );
      }
      // Not awaited: the reply is in hand, and the settle is already on its way to the store ahead of anything this
      // process asks it next (one connection, in order); the ledger's own reads wait for it.
      if (reservation !== undefined) {
        deps.ledger
          .settle(reservation, reply.usage.inputTokens + reply.usage.outputTokens)
          .catch((err: unknown) => deps.log(`${modelKey(candidate)}: settle failed: ${String(err)}`));
      }
      return {
        provider: candidate.provider,
        model: reply.model || candidate.model,
        candidateModel: candidate.model,
        tier: candidate.tier,
        effort: candidate.effort,
        requestedEffort: candidate.requested_effort,
        reply,
        costUsd: cost(row, reply),
        prompt: { estimatedTokens: prompt.estimatedTokens, cut: prompt.cut, dropped: prompt.dropped },
        hops,
      };
    } catch (err) {
      live?.discard();
      observeCall(series, callStarted, err instanceof ProviderCallError ? err.kind : 'unexpected_error');
      if (reservation !== undefined) await deps.ledger.settle(reservation, 0);
      if (request.signal?.aborted || !(err instanceof ProviderCallError)) {
        if (request.signal?.aborted) throw err;
        // An adapter bug or an unexpected client error: treat as transient for this candidate.
        deps.log(`${modelKey(candidate)}: unexpected error: ${redactSecret((err as Error).message, apiKey)}`);
        passOver(candidate, 'unexpected_error', false, true);
        continue;
      }
      // A vendor's message may echo the key it was sent; the log must not.
      deps.log(`${modelKey(candidate)}: ${err.kind}: ${redactSecret(err.message, apiKey)}`);
      switch (err.kind) {
        case 'auth':
          dead.add(candidate.provider);
          passOver(candidate, 'provider_auth_refused', true, true);
          break;
        case 'unfunded':
          await deps.flags.setFlag(unfundedFlag(candidate.provider), UNFUNDED_SKIP_MS);
          passOver(candidate, 'provider_unfunded', false, true);
          break;
        case 'rate_limited':
          await deps.ledger.cooldown(modelKey(candidate), err.retryAfterMs ?? DEFAULT_COOLDOWN_MS);
          passOver(candidate, 'rate_limited', false, true);
          break;
        case 'bad_request':
          passOver(candidate, 'request_refused', true, true);
          break;
        default:
          passOver(candidate, err instanceof StreamStalled ? 'stream_stalled' : 'provider_unavailable', false, true);
      }
    }
  }
  if (attempts.length > 0 && allUnfunded) throw new ProviderUnfunded(attempts, false);
  throw new NoCandidateAnswered(attempts, permanent);
}
