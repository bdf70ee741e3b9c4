import { liveDelta } from '../events/live-deltas';
import type { ApiInfo } from '../http/openapi';

/** How the ingest API names itself in its OpenAPI document (with a database or without one: the same contract). */
export const INGEST_API: ApiInfo = {
  title: 'Keel ingest API',
  description:
    'Jobs, workflows, projects and the rest of the `/v1` surface. Every `/v1` call carries `Authorization: Bearer <token>`; errors are `{ "error": { "code", "message" } }`.',
  // The `event: delta` messages of a job's stream (`GET /v1/jobs/{id}/stream`).
  schemas: { LiveDelta: liveDelta },
};
