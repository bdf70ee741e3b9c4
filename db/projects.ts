import type { Pool } from 'pg';
import slugify from 'slugify';

export interface ProjectRow {
  slug: string;
  name: string;
  org_id: string | null;
  created_at: Date;
}

/** The longest slug Keel derives; with a `-<n>` suffix it stays under the API's 64-character limit. */
const MAX_BASE_LENGTH = 48;

/** A URL-safe slug from a project name (`Café Déjà Vu!` → `cafe-deja-vu`); `project` when nothing is left. */
export function slugFor(name: string): string {
  const base = slugify(name, { lower: true, strict: true, trim: true }).slice(0, MAX_BASE_LENGTH).replace(/-+$/, '');
  return base || 'project';
}

/**
 * Creates a project under `slug` when given (undefined when the org has it already), otherwise under the slug
 * derived from the name, taking `-2`, `-3`, … on collision. Slugs are per org: another org's never collide. Safe
 * under concurrent creates: the (org_id, slug) key decides who gets a slug, and a loser tries the next suffix.
 */
export async function createProject(
  pool: Pool,
  project: { name: string; slug?: string; orgId: string },
): Promise<ProjectRow | undefined> {
  const insert = (slug: string) =>
    pool.query<ProjectRow>(
      `INSERT INTO projects (slug, name, org_id) VALUES ($1, $2, $3)
       ON CONFLICT (org_id, slug) DO NOTHING RETURNING slug, name, org_id, created_at`,
      [slug, project.name, project.orgId],
    );
  if (project.slug) return (await insert(project.slug)).rows[0];
  const base = slugFor(project.name);
  for (let n = 1; ; n += 1) {
    const { rows } = await insert(n === 1 ? base : `${base}-${n}`);
    if (rows[0]) return rows[0];
  }
}

/** Projects visible to an org (null: an admin, who sees every org's), newest first. */
export async function listProjects(pool: Pool, orgId: string | null, limit: number): Promise<ProjectRow[]> {
  const { rows } = await pool.query<ProjectRow>(
    `SELECT slug, name, org_id, created_at FROM projects
      WHERE $1::text IS NULL OR org_id = $1
      ORDER BY created_at DESC, slug
      LIMIT $2`,
    [orgId, limit],
  );
  return rows;
}

/** The org's project of that slug: slugs are per org (migration 0018), so the org is part of the key. */
export async function getProject(pool: Pool, slug: string, orgId: string): Promise<ProjectRow | undefined> {
  const { rows } = await pool.query<ProjectRow>(
    'SELECT slug, name, org_id, created_at FROM projects WHERE org_id = $2 AND slug = $1',
    [slug, orgId],
  );
  return rows[0];
}
