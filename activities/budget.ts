import type { Pool } from 'pg';
import { releaseSpend, reserveSpend, settleSpend, type ReserveOutcome } from '../db/budget-reservations';
import { directivesOf } from '../routing/demo-model/directives';
import type { ModelListing, ModelRouter } from '../routing/router';

/** A completion is estimated at this many output tokens, or the model's maximum when that is lower. */
export const ESTIMATED_OUTPUT_TOKENS = 1_000;

/**
 * One call's estimated cost: the prompt at about four characters a token at the catalog's input price, plus
 * ESTIMATED_OUTPUT_TOKENS at its output price. A model the catalog prices at nothing (the demo model, a local server,
 * a free model) costs what its server will report, which Keel can know only for the demo model's `#cost=<usd>`.
 */
export function estimateCallUsd(
  listing: Pick<ModelListing, 'pricing_per_1k' | 'max_output_tokens'> | undefined,
  promptChars: number,
  jobPrompt: string,
): number {
  const pricing = listing?.pricing_per_1k;
  if (!pricing) return directivesOf(jobPrompt).cost ?? 0;
  const promptTokens = Math.ceil(promptChars / 4);
  const outputTokens = Math.min(listing.max_output_tokens, ESTIMATED_OUTPUT_TOKENS);
  return (promptTokens * pricing.input + outputTokens * pricing.output) / 1000;
}

/**
 * The reservation before each model call of a job and its settlement after (db/budget-reservations.ts). The
 * reservation ids come from the level, so a retried activity reserves, settles or releases once.
 */
export function budgetActivities(deps: { pool: Pool; models: ModelRouter }) {
  // The catalog stays as it is for the process's life: listed once, on the first reservation.
  let prices: Promise<Map<string, ModelListing>> | undefined;
  const listingOf = async (provider: string, model: string) => {
    prices ??= deps.models
      .list()
      .then((all) => new Map(all.map((m) => [`${m.provider}/${m.model}`, m])))
      .catch((err: unknown) => {
        prices = undefined;
        throw err;
      });
    return (await prices).get(`${provider}/${model}`);
  };
  return {
    /** Reserves a call's estimated cost, or says which budget it would overshoot (then nothing is reserved). */
    async reserveModelCall(input: {
      reservationId: string;
      jobId: string;
      levelId: string;
      provider: string;
      model: string;
      promptChars: number;
      ceilingUsd: number | null;
    }): Promise<ReserveOutcome> {
      const listing = await listingOf(input.provider, input.model);
      return reserveSpend(deps.pool, { ...input, nowMs: Date.now() }, (job) =>
        estimateCallUsd(listing, input.promptChars, job.prompt),
      );
    },
    /** Settles a call's reservation at what it cost; answers the job's settled and reserved totals after it. */
    async settleModelCall(input: { reservationId: string; jobId: string; costUsd: number }) {
      return settleSpend(deps.pool, input);
    },
    /** Releases the reservation of a call that was never charged. */
    async releaseModelCall(input: { reservationId: string }): Promise<void> {
      await releaseSpend(deps.pool, input.reservationId);
    },
  };
}
