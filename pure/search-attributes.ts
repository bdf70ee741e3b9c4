import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Custom search attributes that make runs findable in the Temporal UI, e.g.
 * `KeelWorkflowId = "wf-12"` or `KeelStatus = "running" AND KeelProject = "docs"`.
 * Imported by workflow code too, so this file stays free of I/O.
 */
export const KEEL_WORKFLOW_ID = defineSearchAttributeKey('KeelWorkflowId', SearchAttributeType.KEYWORD);
export const KEEL_PROJECT = defineSearchAttributeKey('KeelProject', SearchAttributeType.KEYWORD);
export const KEEL_MODEL_TIER = defineSearchAttributeKey('KeelModelTier', SearchAttributeType.KEYWORD);
export const KEEL_CREATED_BY = defineSearchAttributeKey('KeelCreatedBy', SearchAttributeType.KEYWORD);
export const KEEL_STATUS = defineSearchAttributeKey('KeelStatus', SearchAttributeType.KEYWORD);
/**
 * What a run is, so the Temporal UI can list one kind: `job` (what a person submitted), `level` (one level run of a
 * job, a child), `connector` (a scheduled connector run), `relay` (team chat's delivery of a job's events) or
 * `maintenance` (the scheduled garbage collection of workspace blobs).
 * `KeelKind = "job"` is the operators' default view (docs/temporal-ui.md).
 */
export const KEEL_KIND = defineSearchAttributeKey('KeelKind', SearchAttributeType.KEYWORD);
export type KeelKind = 'job' | 'level' | 'connector' | 'relay' | 'maintenance';

export const KEEL_SEARCH_ATTRIBUTES = [
  KEEL_WORKFLOW_ID,
  KEEL_PROJECT,
  KEEL_MODEL_TIER,
  KEEL_CREATED_BY,
  KEEL_STATUS,
  KEEL_KIND,
];

/** A run's one-line summary in the Temporal UI: the first line of `text`, cut to what the list shows. */
export function runSummary(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
