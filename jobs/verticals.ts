import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { insertVertical } from '../db/verticals';
import type { Admitted } from './admit';
import type { VerticalInput } from '../workflows/capability-definitions';
import type { JobIds } from '../workflows/definitions';
import type { JobsDeps } from './deps';
import { redactPrompt } from './redact';
import { startSystemJob } from './system-job';

/** Starts a vertical's discovery job; the vertical row and the job commit together. */
export async function startVerticalDiscovery(
  deps: JobsDeps,
  principal: Admitted,
  body: { name: string; description?: string },
  log: FastifyBaseLogger,
): Promise<JobIds & { vertical_id: string }> {
  const verticalId = `vt-${crypto.randomUUID()}`;
  const name = redactPrompt(body.name).text;
  const description = body.description === undefined ? undefined : redactPrompt(body.description).text;
  const ids = await startSystemJob(
    deps,
    principal,
    {
      prompt: `Discover the ${name} vertical${description ? `: ${description}` : ''}`,
      workflowType: 'runVerticalDiscovery',
      memo: { vertical_id: verticalId },
      args: (ids): [VerticalInput] => [{ ids, verticalId, orgId: principal.org_id, name, description }],
      rows: (client, ids) =>
        insertVertical(client, {
          verticalId,
          orgId: principal.org_id,
          name,
          description,
          jobId: ids.job_id,
          createdBy: principal.user_id || 'user',
        }),
    },
    log,
  );
  return { ...ids, vertical_id: verticalId };
}
