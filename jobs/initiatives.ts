import crypto from 'node:crypto';
import {
  getInitiative,
  initiativeProgress,
  insertInitiative,
  workflowOrgs,
  type InitiativeRow,
  type InitiativeProgress,
} from '../db/initiatives';
import type { TokenOwner } from '../db/tokens';
import { withTransaction } from '../db/transaction';
import { NotFound } from '../refusals/refusal';
import type { JobsDeps } from './deps';
import { redactPrompt } from './redact';
import { canSee } from './visibility';

export type InitiativeView = InitiativeRow & { progress: InitiativeProgress };

/** Creates an initiative over workflows of the caller's org; a workflow the caller cannot see is 404 (nothing stored). */
export async function createInitiative(
  deps: Pick<JobsDeps, 'pool'>,
  principal: TokenOwner,
  body: { title: string; goal?: string; workflow_ids: string[] },
): Promise<InitiativeView> {
  const ids = [...new Set(body.workflow_ids)];
  const orgs = await workflowOrgs(deps.pool, ids);
  for (const id of ids) {
    if (!orgs.has(id) || !canSee(principal, orgs.get(id)!)) throw new NotFound(`workflow ${id}`);
  }
  const initiativeId = `in-${crypto.randomUUID()}`;
  await withTransaction(deps.pool, (client) =>
    insertInitiative(client, {
      initiativeId,
      orgId: principal.org_id,
      title: redactPrompt(body.title).text,
      goal: body.goal === undefined ? undefined : redactPrompt(body.goal).text,
      createdBy: principal.user_id || 'user',
      workflowIds: ids,
    }),
  );
  return (await withProgress(deps, [(await getInitiative(deps.pool, initiativeId))!]))[0]!;
}

export async function visibleInitiative(
  deps: Pick<JobsDeps, 'pool'>,
  principal: TokenOwner,
  id: string,
): Promise<InitiativeView> {
  const row = await getInitiative(deps.pool, id);
  if (!row || !canSee(principal, row.org_id)) throw new NotFound(`initiative ${id}`);
  return (await withProgress(deps, [row]))[0]!;
}

export async function withProgress(deps: Pick<JobsDeps, 'pool'>, rows: InitiativeRow[]): Promise<InitiativeView[]> {
  const progress = await initiativeProgress(
    deps.pool,
    rows.map((r) => r.initiative_id),
  );
  return rows.map((row) => ({ ...row, progress: progress.get(row.initiative_id)! }));
}
