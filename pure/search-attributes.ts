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

export const KEEL_SEARCH_ATTRIBUTES = [KEEL_WORKFLOW_ID, KEEL_PROJECT, KEEL_MODEL_TIER, KEEL_CREATED_BY, KEEL_STATUS];
