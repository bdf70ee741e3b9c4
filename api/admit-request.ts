import type { FastifyRequest } from 'fastify';
import { admit, type AdmissionDeps, type Admitted } from '../jobs/admit';
import { principalOf } from './plugins/principal';

/**
 * Admission for an ingest API request that starts a job (POST /v1/chat, /v1/workflows, a workflow's prompts, a
 * capability plan, a vertical's discovery, a work item's start; the console's submissions come through these too).
 * The principal plugin authenticated the request and charged its rate-limit point already; what is left is the
 * budget. A machine user's token (unknown to the identity service) has no budget.
 */
export function admitRequest<T>(
  deps: AdmissionDeps,
  request: FastifyRequest,
  submit: (admitted: Admitted) => Promise<T>,
): Promise<T> {
  return admit(deps, principalOf(request), { unknownUsers: 'exempt', rateLimitCharged: true }, submit);
}
