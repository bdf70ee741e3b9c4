import { z } from 'zod';
import { FOLLOW_UP_POLICIES } from '../pure/follow-up-policy';

/** A follow-up policy at the API's boundary (docs/follow-up-policies.md): any other value is a 400. */
export const FollowUpPolicySchema = z.enum(FOLLOW_UP_POLICIES);
