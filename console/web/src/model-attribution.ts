/**
 * One rule for naming models on every page (docs/console.md, "Model attribution"): say what was asked for and what
 * answered, from the events' own fields, never a default. The job page's level tree, its step drawer and timeline rows,
 * and the workflow page's run table all call this, so a level reads the same wherever it is shown.
 */
export interface ModelRef {
  provider: string;
  model: string;
  /** The catalog's name for the model, when routing gave one. */
  displayName?: string | null;
}

export interface AttributionInput {
  /** What routing asked for (`routing_decision`'s first candidate), if known. */
  asked: ModelRef | null;
  /** What answered (`level_finished`'s provider/model); absent for verdict levels, which report none (spec). */
  answered: ModelRef | null;
  /** A level composed in code: no model was called. */
  composed?: boolean;
  /** Routing found no configured provider and the offline demo model stood in. */
  offline?: boolean;
  /** The level ended (so a missing answer is final, not pending). */
  finished?: boolean;
}

/** A `provider/model` string (the run graph's `intended_model`) as a reference; null for none. */
export function parseModelRef(text: string | null | undefined): ModelRef | null {
  if (!text) return null;
  const slash = text.indexOf('/');
  return slash > 0 ? { provider: text.slice(0, slash), model: text.slice(slash + 1) } : { provider: '', model: text };
}

/** `provider/model`, or the display name when routing gave one; empty parts are left out rather than invented. */
export function modelName(ref: ModelRef): string {
  if (ref.displayName) return ref.displayName;
  return [ref.provider, ref.model].filter(Boolean).join('/') || 'an unnamed model';
}

function same(a: ModelRef, b: ModelRef): boolean {
  // Routing names the catalog model; the answer names the vendor's model, which may carry the catalog id as a suffix.
  return (
    a.model !== '' &&
    a.provider === b.provider &&
    (a.model === b.model || b.model.endsWith(a.model) || a.model.endsWith(b.model))
  );
}

/**
 * The sentence: "asked for X, answered by Y" when they differ, "X" once when they agree, and what is not known said
 * as such ("not reported" for a verdict level, "no model call" for a level composed in code).
 */
export function modelAttribution({ asked, answered, composed, offline, finished }: AttributionInput): string {
  if (composed) return 'composed in code, no model call';
  const askedFor = asked && (asked.model || asked.displayName) ? modelName(asked) : null;
  if (answered && (answered.model || answered.provider)) {
    const by = [answered.provider, answered.model].filter(Boolean).join('/');
    if (!askedFor) return `answered by ${by}`;
    if (asked && same(asked, answered)) return `asked for and answered by ${by}`;
    return `asked for ${askedFor}, answered by ${by}`;
  }
  // Offline routing has one candidate, the demo model: it is what answered, even where the event does not say so.
  if (offline)
    return askedFor ? `asked for ${askedFor}; the offline demo model stood in` : 'the offline demo model stood in';
  if (askedFor)
    return finished ? `asked for ${askedFor}; the answering model is not reported` : `asked for ${askedFor}`;
  return finished ? 'no model reported' : '';
}
