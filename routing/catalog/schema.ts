/**
 * Zod schemas for the model catalog and the team-controls file, and the one place their problems are worded.
 * Every object is strict (an unknown field is a mistake, not an extension point), and each rule's problem names the
 * model as `<provider>/<model>` and the field, so `models check` output can be acted on without opening the file.
 */
import { z } from 'zod';
import { SecretIdSchema } from '../../secrets/id';
import {
  fieldPath,
  isRecord,
  missingIsRequired,
  type Assert,
  type Checked,
  type Equal,
} from '../../config/schema-helpers';
import { FEATURES, RUNGS, TIERS, WIRES } from './types';
import type { Catalog, TeamControls } from './types';

const positiveInt = z.number().int().positive();

/** Provider names appear in `provider/model[@rung]` pins and fallbacks, so `/`, `@` and spaces cannot be part of one. */
const providerName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'a provider name uses letters, digits, ".", "_" and "-" only');

/** Model ids may contain `/` and `:` (OpenRouter, Ollama) but not `@`, which starts a pin's rung suffix. */
const modelId = z.string().regex(/^[^\s@]+$/, 'a model id has no spaces and no "@"');

const authSchema = z
  .strictObject({
    env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
      .optional(),
    secret_id: SecretIdSchema.optional(),
  })
  .refine((auth) => auth.env !== undefined || auth.secret_id !== undefined, {
    message: 'auth needs env or secret_id (omit auth for a provider that takes no key)',
  });

const providerEntrySchema = z.strictObject({
  wire: z.enum(WIRES),
  base_url: z.url({ protocol: /^https?$/ }),
  auth: authSchema.optional(),
});

const modelRowSchema = z
  .strictObject({
    provider: providerName,
    model: modelId,
    wire: z.enum(WIRES),
    features: z.array(z.enum(FEATURES)),
    cost_tier: z.enum(TIERS),
    pricing_per_1k: z
      .strictObject({
        input: z.number().nonnegative(),
        output: z.number().nonnegative(),
        cached_input: z.number().nonnegative().optional(),
        cache_write: z.number().nonnegative().optional(),
      })
      .optional(),
    context_tokens: positiveInt,
    // Zero is allowed for embedding models, which return vectors rather than tokens.
    max_output_tokens: z.number().int().nonnegative(),
    quota: z.strictObject({ rpm: positiveInt, tpm: positiveInt, rpd: positiveInt }).optional(),
    effort: z.partialRecord(z.enum(RUNGS), z.record(z.string(), z.unknown())).optional(),
    preference: z.number().optional(),
    dimensions: positiveInt.optional(),
    thinking: z.strictObject({ budget_tokens: positiveInt }).optional(),
    display_name: z.string().min(1).optional(),
    checked: z.iso.date().optional(),
  })
  .superRefine((row, ctx) => {
    // Messages start with the field they are about; describeIssue prefixes the row and its model.
    if (row.cost_tier !== 'free' && row.pricing_per_1k === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['pricing_per_1k'],
        message: 'pricing_per_1k is required for a non-free model',
      });
    }
    if (row.cost_tier === 'free' && row.quota === undefined) {
      ctx.addIssue({ code: 'custom', path: ['quota'], message: 'quota (rpm, tpm, rpd) is required for a free model' });
    }
    if (row.features.includes('embedding') && row.dimensions === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['dimensions'],
        message: 'dimensions is required for a model with feature embedding',
      });
    }
    if (row.thinking !== undefined && row.thinking.budget_tokens >= row.max_output_tokens) {
      ctx.addIssue({
        code: 'custom',
        path: ['thinking', 'budget_tokens'],
        message: `thinking.budget_tokens (${row.thinking.budget_tokens}) must be below max_output_tokens (${row.max_output_tokens})`,
      });
    }
    if (row.effort !== undefined && !row.features.includes('reasoning')) {
      ctx.addIssue({ code: 'custom', path: ['effort'], message: 'effort requires feature reasoning' });
    }
  });

/** The model catalog file: what exists, its capability, price and free quota. Output type: `Catalog`. */
export const catalogSchema = z
  .strictObject({
    providers: z.record(providerName, providerEntrySchema),
    models: z.array(modelRowSchema),
  })
  // Runs even when some rows are malformed, so one bad row does not hide the cross-row problems of the others.
  .superRefine((catalog, ctx) => crossRowRules(catalog, ctx), { when: () => true });

/** The team's permission file. Output type: `TeamControls`. */
export const teamControlsSchema = z.strictObject({
  providers: z.record(providerName, z.strictObject({ models: z.array(z.string().min(1)).optional() })),
});

/** A parsed file's verdict: the typed value, or one human-readable line per problem. */

/** Validates a parsed catalog document; problems read like `models[3] openai/gpt-5: pricing_per_1k is required ...`. */
export function checkCatalog(input: unknown): Checked<Catalog> {
  const result = catalogSchema.safeParse(input, { error: missingIsRequired });
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, problems: result.error.issues.flatMap((issue) => describeIssue(issue, input, 'catalog')) };
}

/** Validates a parsed team-controls document; problems read like `providers.openai: unknown field "model"`. */
export function checkTeamControls(input: unknown): Checked<TeamControls> {
  const result = teamControlsSchema.safeParse(input, { error: missingIsRequired });
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, problems: result.error.issues.flatMap((issue) => describeIssue(issue, input, 'team controls')) };
}

/** Rules that need more than one row: the provider is declared, the wires agree, a (provider, model) pair is unique. */
function crossRowRules(catalog: unknown, ctx: z.RefinementCtx): void {
  if (!isRecord(catalog) || !Array.isArray(catalog.models)) return;
  const providers = isRecord(catalog.providers) ? catalog.providers : undefined;
  const firstRow = new Map<string, number>();
  catalog.models.forEach((row: unknown, index) => {
    if (!isRecord(row) || typeof row.provider !== 'string') return;
    const { provider } = row;
    // A malformed name is already reported, and was dropped from the parsed providers, so do not also call it missing.
    if (!providerName.safeParse(provider).success) return;
    if (providers !== undefined && !Object.hasOwn(providers, provider)) {
      ctx.addIssue({
        code: 'custom',
        path: ['models', index, 'provider'],
        message: `provider "${provider}" is not declared under providers`,
      });
    }
    const entry = providers !== undefined && Object.hasOwn(providers, provider) ? providers[provider] : undefined;
    if (isRecord(entry) && isWire(entry.wire) && isWire(row.wire) && entry.wire !== row.wire) {
      ctx.addIssue({
        code: 'custom',
        path: ['models', index, 'wire'],
        message: `wire ${row.wire} differs from the wire of provider "${provider}" (${entry.wire})`,
      });
    }
    if (typeof row.model !== 'string') return;
    const key = `${provider}\u0000${row.model}`;
    const first = firstRow.get(key);
    if (first === undefined) {
      firstRow.set(key, index);
    } else {
      ctx.addIssue({
        code: 'custom',
        path: ['models', index, 'model'],
        message: `model duplicates models[${first}]: each (provider, model) pair appears once`,
      });
    }
  });
}

/**
 * One line per problem: `<where>: <what>`. Where is `models[i] <provider>/<model>`, `providers.<name>` or the file;
 * what names the field. Our own rules already name their field; zod's built-in messages get the field prefixed.
 */
function describeIssue(issue: z.core.$ZodIssue, input: unknown, root: string): string[] {
  const { where, rest } = locate(issue.path, input, root);
  const field = fieldPath(rest);
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => `${where}: unknown field "${field === '' ? key : `${field}.${key}`}"`);
  }
  if (issue.code === 'invalid_key') {
    return issue.issues.map((inner) => `${where}: name ${JSON.stringify(String(issue.path.at(-1)))}: ${inner.message}`);
  }
  if (issue.code === 'custom' || field === '') return [`${where}: ${issue.message}`];
  return [`${where}: ${field}: ${issue.message}`];
}

function locate(path: readonly PropertyKey[], input: unknown, root: string): { where: string; rest: PropertyKey[] } {
  const [top, key, ...rest] = path;
  if (top === 'models' && typeof key === 'number') {
    const row = isRecord(input) && Array.isArray(input.models) ? (input.models[key] as unknown) : undefined;
    return { where: `models[${key}]${modelLabel(row)}`, rest };
  }
  if (top === 'providers' && key !== undefined) return { where: `providers.${String(key)}`, rest };
  if (top !== undefined) return { where: String(top), rest: path.slice(1) };
  return { where: root, rest: [] };
}

function modelLabel(row: unknown): string {
  if (!isRecord(row)) return '';
  const name = (value: unknown) => (typeof value === 'string' && value !== '' ? value : '?');
  return ` ${name(row.provider)}/${name(row.model)}`;
}

function isWire(value: unknown): value is (typeof WIRES)[number] {
  return typeof value === 'string' && (WIRES as readonly string[]).includes(value);
}

// Compile-time proof that the schemas produce exactly the contract in types.ts.
export type _CatalogMatchesContract = Assert<Equal<z.output<typeof catalogSchema>, Catalog>>;
export type _TeamControlsMatchContract = Assert<Equal<z.output<typeof teamControlsSchema>, TeamControls>>;
