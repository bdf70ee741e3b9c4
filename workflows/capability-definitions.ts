import type { JobIds, JobInput } from './definitions';
import type { EventPayload } from '../events/payloads';
import type { SkillEventKind } from '../events/skill-payloads';
import type { Emit } from './emit';
import type { UnitSpec } from '../pure/contracts';

/** Same-level rule for acquisition units: the first attempt plus this many retries, then the roadmap is blocked. */
export const MAX_UNIT_RETRIES = 3;

/** A capability roadmap, run as its own job (`standalone`) or as a child of a work item's job that needs it. */
export interface RoadmapInput {
  ids: JobIds;
  roadmapId: string;
  capability: string;
  orgId: string;
  reason?: string;
  /** The roadmap owns its job: it marks the job's status and ends it with `final` or `error`. */
  standalone: boolean;
}

export interface RoadmapResult {
  status: 'acquired' | 'blocked';
  reason?: string;
}

export type { UnitSpec } from '../pure/contracts';

/** One attempt at one unit, run as a child workflow `<job_id>/<roadmap>/unit-<position>/<attempt>`. */
export interface UnitInput {
  ids: JobIds;
  roadmapId: string;
  capability: string;
  unit: UnitSpec;
  attempt: number;
  /** This attempt is the last the rule allows. */
  last: boolean;
  reason?: string;
  /** The capability's requirements in words, for the unit's task. */
  requirements: string;
  modelTier?: string;
}

export type UnitResult = { verified: true; evidence: string[] } | { verified: false; reason: string };

/** A vertical's discovery job. */
export interface VerticalInput {
  ids: JobIds;
  verticalId: string;
  orgId: string;
  name: string;
  description?: string;
}

/** A work item's job: acquires what its work type needs, then runs the scenario as a job (a child). */
export interface WorkItemInput {
  ids: JobIds;
  orgId: string;
  slug: string;
  workType: string;
  capabilities: string[];
  createdBy: string;
  job: JobInput;
}

/** Typed emission of the skill-acquisition kinds; their payload contracts live in events/skill-payloads.ts. */
export function emitSkill<K extends SkillEventKind>(
  emit: Emit,
  role: string,
  kind: K,
  payload: EventPayload<K>,
): ReturnType<Emit> {
  return emit(role, kind, payload);
}

export function unitWorkflowId(jobId: string, roadmapId: string, position: number, attempt: number): string {
  return `${jobId}/${roadmapId}/unit-${position}/${attempt}`;
}
