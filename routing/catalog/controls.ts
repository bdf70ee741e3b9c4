/**
 * Team controls' one question, may the team use this model, and the `*` glob that team controls, pins and fallbacks
 * share. Pure (no I/O), so candidate resolution and the catalog loader ask the same function.
 */
import picomatch from 'picomatch';
import type { TeamControls } from './types';

/** A compiled pattern: true when the whole value matches. */
export type GlobMatcher = (value: string) => boolean;

// bash mode lets a single `*` cross `/`; every other glob feature is off, and the characters picomatch would still
// read specially are escaped, so only `*` is special.
const STAR_ONLY = {
  bash: true,
  dot: true,
  nobrace: true,
  nobracket: true,
  noextglob: true,
  nonegate: true,
  noquantifiers: true,
} as const;

/**
 * Compiles a pattern in which `*` matches any run of characters, `/` included, so `meta-llama/*` covers OpenRouter's
 * vendor-prefixed ids; every other character is literal (`llama3.1:8b`, `qwen?`).
 */
export function starGlob(pattern: string): GlobMatcher {
  const escaped = pattern.replace(/\*+/g, '*').replace(/[?!+@()[\]{}|^$\\]/g, '\\$&');
  const isMatch = picomatch(escaped, STAR_ONLY);
  // One argument only: picomatch's matcher reads a second one as "return a match object".
  return (value) => isMatch(value);
}

/**
 * Whether team controls permit `provider`/`model`. A provider absent from the controls is not permitted; a provider
 * without `models` permits all of its models; otherwise some `starGlob` pattern must match the whole model id. An
 * empty list permits none.
 */
export function allowedByControls(controls: TeamControls, provider: string, model: string): boolean {
  if (!Object.hasOwn(controls.providers, provider)) return false;
  const patterns = controls.providers[provider]?.models;
  if (patterns === undefined) return true;
  return patterns.some((pattern) => starGlob(pattern)(model));
}
