import type { Candidate } from './catalog/types';

/**
 * The order in which the walk tries what is left after `failed` failed: the next model on the same
 * provider, then the band's other providers (pins and fallbacks included, in their order), then the
 * provider defaults. Pure, so the walk's order can be tested on its own.
 */
export function remainingAfter(failed: Candidate, remaining: readonly Candidate[]): Candidate[] {
  const sameProvider = remaining.filter((c) => c.provider === failed.provider && c.source !== 'provider_default');
  const others = remaining.filter((c) => c.provider !== failed.provider && c.source !== 'provider_default');
  const defaults = remaining.filter((c) => c.source === 'provider_default');
  return [...sameProvider, ...others, ...defaults];
}
