import type { Pool } from 'pg';

/** An org's own design as stored; `tokens` is the JSON the API validated. */
export interface DesignRow {
  org_id: string;
  design_id: string;
  name: string;
  description: string;
  keywords: string[];
  tokens: unknown;
  layout: string;
  created_by: string;
  created_at: Date;
}

export interface NewDesign {
  id: string;
  name: string;
  description: string;
  keywords: string[];
  tokens: unknown;
  layout: string;
}

/** Stores an org's design; undefined when the org already has one with this id (nothing is changed then). */
export async function insertDesign(
  pool: Pool,
  orgId: string,
  design: NewDesign,
  createdBy: string,
): Promise<DesignRow | undefined> {
  const { rows } = await pool.query<DesignRow>(
    `INSERT INTO designs (org_id, design_id, name, description, keywords, tokens, layout, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (org_id, design_id) DO NOTHING
     RETURNING *`,
    [
      orgId,
      design.id,
      design.name,
      design.description,
      design.keywords,
      JSON.stringify(design.tokens),
      design.layout,
      createdBy,
    ],
  );
  return rows[0];
}

/** An org's designs, oldest first (the order they were added). */
export async function listDesigns(pool: Pool, orgId: string): Promise<DesignRow[]> {
  const { rows } = await pool.query<DesignRow>(
    'SELECT * FROM designs WHERE org_id = $1 ORDER BY created_at, design_id',
    [orgId],
  );
  return rows;
}
