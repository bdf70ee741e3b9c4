import { z } from 'zod';
import { LEVEL_ROLE } from '../pure/roles';
import { EVENT_PAYLOADS, hasContract } from './payloads';

export const SCHEMA_VERSION = '1';

/** `L1.` to `L4.` followed by a role name, e.g. `L2.architect`. */
export const agentRole = z.string().regex(LEVEL_ROLE, 'L1.–L4. prefix followed by a role name');

/** The AgentEvent envelope, exactly the spec's fields. Unknown kinds pass through with any object payload. */
export const eventEnvelope = z.object({
  schema_version: z.literal(SCHEMA_VERSION),
  job_id: z.string(),
  workflow_id: z.string(),
  prompt_id: z.string(),
  agent_role: agentRole,
  sequence: z.number().int().min(1),
  occurred_at: z.iso.datetime(),
  kind: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
});
export type EventEnvelope = z.infer<typeof eventEnvelope>;

/** What an emitter supplies; the append activity adds ids, `sequence` and `occurred_at`. */
export const eventDraft = z.object({
  /** Deterministic per emitter, so a retried append is recognised and dropped. */
  key: z.string().min(1),
  agent_role: agentRole,
  kind: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
});
export type EventDraft = z.infer<typeof eventDraft>;

/** Validates a draft's payload against its kind's contract, when the kind has one. */
export function checkPayload(kind: string, payload: Record<string, unknown>): Record<string, unknown> {
  return hasContract(kind) ? EVENT_PAYLOADS[kind].parse(payload) : payload;
}
