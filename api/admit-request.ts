import type { FastifyRequest } from 'fastify';
import { admit, type AdmissionDeps, type Admitted } from '../jobs/admit';
import type { ProjectRef } from '../jobs/tenant-budgets';
import { principalOf } from './plugins/principal';

/**
 * Admission for an ingest API request that starts a job (POST /v1/chat, /v1/workflows, a workflow's prompts, a
 * capability plan, a vertical's discovery, a work item's start; the console's submissions come through these too).
 * The principal plugin authenticated the request and charged its rate-limit point already; what is left is the
 * budgets: the user's own (a machine user's token, unknown to the identity service, has none), the org's and, when the
 * job runs in one, `project`'s (docs/budgets.md).
 */
export function admitRequest<T>(
  deps: AdmissionDeps,
  request: FastifyRequest,
  submit: (admitted: Admitted) => Promise<T>,
  project?: ProjectRef,
): Promise<T> {
  return admit(deps, principalOf(request), { unknownUsers: 'exempt', rateLimitCharged: true, project }, submit);
}
