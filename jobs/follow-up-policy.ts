import { z } from 'zod';
import { FOLLOW_UP_POLICIES } from '../pure/follow-up-policy';

/** A follow-up policy at the API's boundary (docs/follow-up-policies.md): any other value is a 400. */
export const FollowUpPolicySchema = z.enum(FOLLOW_UP_POLICIES);

/**
 * A policy, or null (none set, or clear it). Not `.nullable()`: OpenAPI 3.0 allows null in an enum only when null is
 * one of its values, so the document would refuse the nulls the routes answer (the API fuzz test checks every answer).
 */
export const NullableFollowUpPolicySchema = FollowUpPolicySchema.nullable().meta({
  enum: [...FOLLOW_UP_POLICIES, null],
});
