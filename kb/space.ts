/**
 * The knowledge hub's tenancy (docs/knowledge-hub.md, "Tenancy"). A document belongs to an org, or to the shared
 * space (`org_id` NULL) that every org reads and only admin tokens write. A token reads its own org's documents and the
 * shared ones; an admin token reads and writes every org's, like every other resource of Keel (jobs/visibility.ts).
 */

/** Who is asking: a token's org and whether it is an admin token. */
export interface HubCaller {
  org_id: string;
  is_admin: boolean;
}

/**
 * The reader org of a caller that belongs to no org (an agent's search outside any job): it matches no document's
 * org, so only the shared space is visible. Org ids are never empty.
 */
export const SHARED_SPACE_ONLY = '';

/** Where a new document goes: the writer's org, or the shared space. */
export type SpaceChoice = 'org' | 'shared';

/** The org whose documents (with the shared ones) the caller reads, or null for an admin (every org). */
export function readerOrg(caller: HubCaller): string | null {
  return caller.is_admin ? null : caller.org_id;
}

/**
 * SQL: the document aliased `alias` is visible to the reader org bound at `param` (null: every document). The shared
 * space is visible to everyone.
 */
export function visibleSql(param: string, alias = 'd'): string {
  return `(${param}::text IS NULL OR ${alias}.org_id IS NULL OR ${alias}.org_id = ${param}::text)`;
}

export function canRead(caller: HubCaller, orgId: string | null): boolean {
  return caller.is_admin || orgId === null || orgId === caller.org_id;
}

/** Own org's documents for every token; the shared space and other orgs' only for admin tokens. */
export function canWrite(caller: HubCaller, orgId: string | null): boolean {
  return caller.is_admin || (orgId !== null && orgId === caller.org_id);
}

/** A space's name in messages. */
export function spaceName(orgId: string | null): string {
  return orgId === null ? 'the shared space' : `org ${orgId}`;
}
