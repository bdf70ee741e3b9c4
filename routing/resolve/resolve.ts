/**
 * Candidate resolution (spec "Resolution and the walk"): from the catalog, the team's controls and one level's
 * routing, the whole ordered list of (provider, model) pairs the walk tries. Pure: log lines come back in `notes`.
 *
 * Order of the steps, and the decisions behind them:
 * 1. Team controls are a hard filter (`allowedByControls`); a provider omitted there disappears with no note
 *    (spec: "no error").
 * 2. Embedding models are never chat candidates, not even when pinned.
 * 3. Capability requirements are matched before price (requirements.ts); cost-tier constraints (`fast_cheap`'s
 *    tiers, the free-model rule) follow.
 * 4. Pins (an allow list) replace the band: the pinned models, in pin order, never narrowed by the band (band rule
 *    5). A pin still needs the level's capabilities (it would fail at the vendor otherwise; refused with a note).
 *    A pattern naming one model exactly (no `*`) overrides cost-tier constraints, the free-model rule included:
 *    naming the model is the scenario's price decision. A glob pin does not, so `openrouter/*` under a paid
 *    level does not pull in free models behind the quota ledger's back. `pins: []` counts as no pins. Pins that
 *    admit nothing leave the list empty with a note; the band is NOT used instead (the allow list stands).
 * 5. Otherwise the band applies; when nothing survives it, it is dropped with a note (band rule 4) and every
 *    admitted model is ordered in the dropped band's direction: the budget's intent (strongest or cheapest)
 *    survives, only its tier restriction goes. With no band at all, cheapest first (the default budget's rule).
 *    When no model is admitted at all there is nothing to drop the band for: a note, `bandDropped` stays false.
 * 6. Scenario fallbacks are appended under the same rules as pins; a fallback already listed or blocked by team
 *    controls is skipped silently.
 * 7. Provider defaults, the walk's last resort: for each provider already listed, its other admitted models, in
 *    the same order. They pass every filter the band's models pass, the free-model rule included (a free model
 *    never enters as a paid provider's default; an exact free pin does not admit its provider's other free
 *    models). They are NOT appended to a pinned list: an allow list would otherwise be widened silently.
 */
import type {
  Candidate,
  CandidateSource,
  Catalog,
  LevelRouting,
  ModelRow,
  Requirement,
  Resolution,
  Rung,
  TeamControls,
} from '../catalog/types';
import { allowedByControls, starGlob } from '../catalog/controls';
import type { GlobMatcher } from '../catalog/controls';
import type { BandOrder } from './bands';
import { bandFor, bandOrder, orderModels } from './bands';
import { effectiveRung, isRung, resolveEffort } from './effort';
import { costRefusal, firstMissingCapability, modelId, parseRequirements } from './requirements';

/** A pin or fallback entry: `provider/model` or a bare `model` (any provider), `*` globs, optional `@rung`. */
interface Pattern {
  raw: string;
  /** Undefined for a bare model pattern. */
  provider?: GlobMatcher;
  model: GlobMatcher;
  rung?: Rung;
  /** No `*`: the entry names its model, so it overrides cost-tier constraints. */
  exact: boolean;
}

/**
 * The whole ordered candidate list for one level: pins or band, then fallbacks, then provider defaults, each
 * candidate with its requested and effective effort. See the module header for the rules.
 */
export function resolveCandidates(catalog: Catalog, controls: TeamControls, level: LevelRouting): Resolution {
  const notes: string[] = [];
  const { requirements, notes: requirementNotes } = parseRequirements(level.requirements);
  notes.push(...requirementNotes);
  const { band, note: bandNote } = bandFor(level.role, level.budget);
  if (bandNote !== undefined) notes.push(bandNote);
  const order = bandOrder(band);

  const chatModels = catalog.models.filter((m) => !m.features.includes('embedding'));
  const permitted = chatModels.filter((m) => allowedByControls(controls, m.provider, m.model));
  const capable = permitted.filter((m) => firstMissingCapability(m, requirements) === undefined);
  const admitted = capable.filter((m) => costRefusal(m, requirements, level.budget) === undefined);

  const list = new CandidateList(level, requirements, notes);
  const providers = providerNames(catalog);
  const pinned = level.pins !== undefined && level.pins.length > 0;
  let bandDropped = false;

  if (pinned) {
    for (const raw of level.pins ?? []) {
      addExplicit(list, parsePattern(raw, providers), 'pin', chatModels, controls, requirements, level, order);
    }
    if (list.size === 0) notes.push(`${level.role}: no pinned model is usable; the pins admit no candidate`);
  } else if (admitted.length === 0) {
    notes.push(`${level.role}: no permitted model meets [${requirements.join(', ')}] at budget ${budgetLabel(level)}`);
  } else if (band === null) {
    list.addAll(orderModels(admitted, order), 'band');
  } else {
    const inBand = admitted.filter((m) => band.includes(m.cost_tier));
    if (inBand.length === 0) {
      bandDropped = true;
      notes.push(
        `${level.role}: band ${band.join('+')} at budget ${budgetLabel(level)} dropped: ` +
          `no model meeting [${requirements.join(', ')}] is in it`,
      );
    }
    list.addAll(orderModels(inBand.length > 0 ? inBand : admitted, order), 'band');
  }

  for (const raw of level.fallbacks ?? []) {
    addExplicit(list, parsePattern(raw, providers), 'fallback', chatModels, controls, requirements, level, order);
  }

  if (!pinned) {
    for (const provider of list.providers()) {
      list.addAll(
        orderModels(
          admitted.filter((m) => m.provider === provider),
          order,
        ),
        'provider_default',
      );
    }
  }

  return { candidates: list.candidates, band, bandDropped, notes };
}

/** Appends the models one pin or fallback entry matches, in `order` within the entry. */
function addExplicit(
  list: CandidateList,
  pattern: Pattern,
  source: CandidateSource,
  chatModels: readonly ModelRow[],
  controls: TeamControls,
  requirements: readonly Requirement[],
  level: LevelRouting,
  order: BandOrder,
): void {
  const matched = chatModels.filter((m) => matches(pattern, m));
  if (matched.length === 0) {
    list.notes.push(`${level.role}: ${source} '${pattern.raw}' matches no chat model in the catalog`);
    return;
  }
  // Team controls remove silently, like everywhere else.
  for (const model of orderModels(
    matched.filter((m) => allowedByControls(controls, m.provider, m.model)),
    order,
  )) {
    if (list.has(model)) continue;
    const missing = firstMissingCapability(model, requirements);
    if (missing !== undefined) {
      list.notes.push(`${level.role}: ${source} '${pattern.raw}' refused: ${missing}`);
      continue;
    }
    // A glob is not a decision about this model's price; only an exact entry overrides cost tiers.
    if (!pattern.exact && costRefusal(model, requirements, level.budget) !== undefined) continue;
    list.add(model, source, pattern.rung);
  }
}

/** Candidates in order, keyed by `provider/model` so each model appears once, with their effort resolved. */
class CandidateList {
  readonly candidates: Candidate[] = [];
  private readonly seen = new Set<string>();

  constructor(
    private readonly level: LevelRouting,
    private readonly requirements: readonly Requirement[],
    readonly notes: string[],
  ) {}

  get size(): number {
    return this.candidates.length;
  }

  has(model: ModelRow): boolean {
    return this.seen.has(modelId(model));
  }

  /** Providers in order of first appearance. */
  providers(): string[] {
    return [...new Set(this.candidates.map((c) => c.provider))];
  }

  addAll(models: readonly ModelRow[], source: CandidateSource): void {
    for (const model of models) if (!this.has(model)) this.add(model, source, undefined);
  }

  add(model: ModelRow, source: CandidateSource, patternRung: Rung | undefined): void {
    this.seen.add(modelId(model));
    const requested = effectiveRung(this.level.effort, patternRung, this.requirements);
    const choice = resolveEffort(model, requested);
    if (choice.note !== undefined) this.notes.push(`${this.level.role}: ${choice.note}`);
    const candidate: Candidate = { provider: model.provider, model: model.model, tier: model.cost_tier, source };
    if (choice.rung !== undefined) candidate.effort = choice.rung;
    if (requested !== undefined) candidate.requested_effort = requested;
    this.candidates.push(candidate);
  }
}

/**
 * Parses a pin or fallback entry. The `@rung` suffix is split off only when it names a rung, because some vendors'
 * model ids contain `@` (e.g. `claude-3-5-sonnet@20240620`). The text before the first `/` is a provider only when
 * it matches a catalog provider, because some model ids contain `/` (e.g. `meta-llama/llama-3.3-70b-instruct`).
 */
function parsePattern(raw: string, providers: readonly string[]): Pattern {
  let body = raw.trim();
  let rung: Rung | undefined;
  const at = body.lastIndexOf('@');
  const suffix = at >= 0 ? body.slice(at + 1) : '';
  if (at >= 0 && isRung(suffix)) {
    rung = suffix;
    body = body.slice(0, at);
  }
  const exact = !body.includes('*');
  const slash = body.indexOf('/');
  if (slash > 0) {
    const provider = starGlob(body.slice(0, slash));
    if (providers.some((name) => provider(name))) {
      return { raw, provider, model: starGlob(body.slice(slash + 1)), rung, exact };
    }
  }
  return { raw, model: starGlob(body), rung, exact };
}

function matches(pattern: Pattern, model: ModelRow): boolean {
  return (pattern.provider === undefined || pattern.provider(model.provider)) && pattern.model(model.model);
}

/** Every provider name the catalog knows, declared or only used by a model row. */
function providerNames(catalog: Catalog): string[] {
  return [...new Set([...Object.keys(catalog.providers), ...catalog.models.map((m) => m.provider)])];
}

function budgetLabel(level: LevelRouting): string {
  return level.budget ?? 'cheap (default)';
}
