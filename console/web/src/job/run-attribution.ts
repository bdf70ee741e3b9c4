import { modelAttribution } from '../model-attribution';
import type { LevelRun } from './derive';

/**
 * The attribution rule (model-attribution.ts) for one level run: what the person's budget asked for (the tier or
 * model routing rerouted from, else what routing chose), what answered. A build runs commands, not a model.
 */
export function runAttribution(run: LevelRun): string {
  if (run.kind === 'build') return "ran the template's build and tests, no model call";
  const routed =
    run.intended && !run.offline
      ? { provider: run.intended.provider, model: run.intended.model, displayName: run.intended.displayName }
      : null;
  return modelAttribution({
    asked: run.askedFor ? { provider: '', model: '', displayName: run.askedFor } : routed,
    answered: run.answered,
    composed: run.deterministic,
    offline: run.offline,
    finished: run.finishedAt !== null,
  });
}
