import { z } from 'zod';
import { skillPayloads } from './skill-payloads';

/**
 * Payload contracts of the kinds whose fields the spec fixes (plus the ones Keel emits today).
 * Objects are loose: the catalog grows by adding fields, and older consumers ignore them.
 */
export const routingDecisionPayload = z.looseObject({
  /** Absent only on the legacy job-level variant, which must not be attributed to a level. */
  level_id: z.string().optional(),
  provider: z.string(),
  /** The intended model; may be empty. */
  model: z.string(),
  tier: z.string(),
  model_candidates: z.array(z.looseObject({ provider: z.string(), model: z.string() })),
});

export const levelFinishedPayload = z.looseObject({
  ok: z.boolean(),
  attempt: z.number().int().min(1),
  duration_ms: z.number().int().min(0),
  cost_usd: z.number().min(0),
  output_preview: z.string(),
  verdict: z.string().optional(),
  /** Only for levels that called an LLM: the model that actually answered. */
  provider: z.string().optional(),
  model: z.string().optional(),
  deterministic: z.literal(true).optional(),
});

export const modelFallbackPayload = z.looseObject({
  from_model: z.string(),
  to_model: z.string(),
  to_provider: z.string(),
  reason: z.string(),
});

export const fileCreatedPayload = z.looseObject({
  path: z.string(),
  sha256: z.string(),
  size_bytes: z.number().int().min(0),
});

export const askUserPayload = z.looseObject({ call_id: z.string(), question: z.string() });
export const approvalRequestedPayload = z.looseObject({ approval_id: z.string() });

export const finalPayload = z.looseObject({
  agent_message: z.string(),
  summary: z.string(),
  /** Cumulative across chained scenarios. */
  created_files: z.array(z.string()),
});

export const errorPayload = z.looseObject({
  retryable: z.boolean(),
  message: z.string(),
  code: z.string().optional(),
});

export const PAYLOAD_CONTRACTS: Record<string, z.ZodType<Record<string, unknown>>> = {
  routing_decision: routingDecisionPayload,
  level_finished: levelFinishedPayload,
  model_fallback: modelFallbackPayload,
  file_created: fileCreatedPayload,
  ask_user: askUserPayload,
  approval_requested: approvalRequestedPayload,
  final: finalPayload,
  error: errorPayload,
  ...skillPayloads,
};

export type FinalPayload = z.infer<typeof finalPayload>;
export type ErrorPayload = z.infer<typeof errorPayload>;
export type LevelFinishedPayload = z.infer<typeof levelFinishedPayload>;
export type RoutingDecisionPayload = z.infer<typeof routingDecisionPayload>;
