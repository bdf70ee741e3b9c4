/**
 * `provider_fallback`, the spec's coarser routing event: a level rerouted from paid transport to the free band as a
 * whole, as opposed to `model_fallback`, one hop of the walk. Pure (workflow code): it reads the routing decision and
 * the model that answered.
 */
import type { EventPayload } from '../events/payloads';

type ProviderFallback = EventPayload<'provider_fallback'>;

interface RoutedCandidate {
  provider: string;
  model: string;
  tier: string;
}

/**
 * When routing itself rerouted the level: its band asked for paid tiers but nothing configured could serve it, so
 * the offline demo model (free) stands in for the whole level.
 */
export function fallbackAtRouting(
  levelId: string,
  route: { offline: boolean; band: string[] | null; candidates: RoutedCandidate[] },
): ProviderFallback | undefined {
  const to = route.candidates[0];
  const paidBand = (route.band ?? []).filter((tier) => tier !== 'free');
  if (!route.offline || paidBand.length === 0 || !to) return undefined;
  return {
    level_id: levelId,
    from_band: route.band,
    to_provider: to.provider,
    to_model: to.model,
    to_tier: to.tier,
    reason: 'no_paid_provider_configured',
  };
}

/**
 * When the walk rerouted the level: the intended model was paid, every paid candidate failed (refused, unfunded,
 * over budget) and a free one answered. `reason` is the last hop's.
 */
export function fallbackAfterWalk(
  levelId: string,
  intended: RoutedCandidate | undefined,
  answered: RoutedCandidate | undefined,
  hops: ReadonlyArray<{ reason: string }>,
): ProviderFallback | undefined {
  if (!intended || !answered || intended.tier === 'free' || answered.tier !== 'free' || hops.length === 0) {
    return undefined;
  }
  return {
    level_id: levelId,
    from_provider: intended.provider,
    from_model: intended.model,
    from_tier: intended.tier,
    to_provider: answered.provider,
    to_model: answered.model,
    to_tier: answered.tier,
    reason: hops.at(-1)!.reason,
  };
}
