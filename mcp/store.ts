import type { Pool } from 'pg';
import type { McpServerConfig, McpServerInput, McpToolPolicy } from './server-config';
import type { Queryable } from '../db/users';

/** An MCP server attached to a project (migration 0036_mcp_servers.sql); `secret_id` is an id, never a value. */
export interface McpServerRow {
  org_id: string;
  project_slug: string;
  name: string;
  transport: 'http' | 'stdio';
  url: string | null;
  command: string | null;
  args: string[];
  secret_id: string | null;
  tools: McpToolPolicy;
  timeout_ms: number;
  updated_by: string;
  updated_at: Date;
}

const COLUMNS =
  'org_id, project_slug, name, transport, url, command, args, secret_id, tools, timeout_ms, updated_by, updated_at';

/** Every attached server (of one org, when named), by org, project and name. */
export async function listMcpServers(db: Queryable, orgId: string | null): Promise<McpServerRow[]> {
  const { rows } = await db.query<McpServerRow>(
    `SELECT ${COLUMNS} FROM mcp_servers WHERE $1::text IS NULL OR org_id = $1 ORDER BY org_id, project_slug, name`,
    [orgId],
  );
  return rows;
}

export async function projectMcpServers(db: Queryable, orgId: string, projectSlug: string): Promise<McpServerRow[]> {
  const { rows } = await db.query<McpServerRow>(
    `SELECT ${COLUMNS} FROM mcp_servers WHERE org_id = $1 AND project_slug = $2 ORDER BY name`,
    [orgId, projectSlug],
  );
  return rows;
}

/** Attaches (or replaces) a server; undefined when the project does not exist (the foreign key's rows are missing). */
export async function setMcpServer(
  pool: Pool,
  change: { orgId: string; projectSlug: string; name: string; server: McpServerInput; updatedBy: string },
): Promise<McpServerRow | undefined> {
  const { server } = change;
  const { rows } = await pool.query<McpServerRow>(
    `INSERT INTO mcp_servers (org_id, project_slug, name, transport, url, command, args, secret_id, tools, timeout_ms,
       updated_by)
     SELECT org_id, slug, $3, $4, $5, $6, $7, $8, $9, $10, $11 FROM projects WHERE org_id = $1 AND slug = $2
     ON CONFLICT (org_id, project_slug, name) DO UPDATE SET transport = EXCLUDED.transport, url = EXCLUDED.url,
       command = EXCLUDED.command, args = EXCLUDED.args, secret_id = EXCLUDED.secret_id, tools = EXCLUDED.tools,
       timeout_ms = EXCLUDED.timeout_ms, updated_by = EXCLUDED.updated_by, updated_at = now()
     RETURNING ${COLUMNS}`,
    [
      change.orgId,
      change.projectSlug,
      change.name,
      server.transport,
      server.transport === 'http' ? server.url : null,
      server.transport === 'stdio' ? server.command : null,
      JSON.stringify(server.transport === 'stdio' ? server.args : []),
      server.secret_id ?? null,
      JSON.stringify(server.tools),
      server.timeout_ms,
      change.updatedBy,
    ],
  );
  return rows[0];
}

/** Detaches a server; false when the project had none of that name. */
export async function deleteMcpServer(pool: Pool, orgId: string, projectSlug: string, name: string): Promise<boolean> {
  const { rowCount } = await pool.query(
    'DELETE FROM mcp_servers WHERE org_id = $1 AND project_slug = $2 AND name = $3',
    [orgId, projectSlug, name],
  );
  return (rowCount ?? 0) > 0;
}

/** The servers attached to a job's project, as activities use them (none for a job without a project). */
export async function mcpServersForJob(db: Queryable, jobId: string): Promise<McpServerConfig[]> {
  const { rows } = await db.query<McpServerRow>(
    `SELECT ${COLUMNS.split(', ')
      .map((c) => `s.${c}`)
      .join(', ')}
       FROM job_runs j
       JOIN workflows w USING (workflow_id)
       JOIN mcp_servers s ON s.org_id = w.org_id AND s.project_slug = w.project_slug
      WHERE j.job_id = $1
      ORDER BY s.name`,
    [jobId],
  );
  return rows.map(configOf);
}

export function configOf(row: McpServerRow): McpServerConfig {
  const common = {
    name: row.name,
    tools: row.tools,
    timeout_ms: row.timeout_ms,
    ...(row.secret_id ? { secret_id: row.secret_id } : {}),
  };
  return row.transport === 'http'
    ? { transport: 'http', url: row.url ?? '', ...common }
    : { transport: 'stdio', command: row.command ?? '', args: row.args, ...common };
}

export interface McpCallRecord {
  startedAt: Date;
  finishedAt: Date | null;
  isError: boolean | null;
  content: string | null;
}

/** Claims an MCP call before it goes out: true when this attempt wrote the row, false when an earlier one did. */
export async function claimMcpCall(
  pool: Pool,
  call: { callKey: string; jobId: string; server: string; tool: string },
): Promise<boolean> {
  const { rowCount } = await pool.query(
    `INSERT INTO mcp_calls (call_key, job_id, server, tool) VALUES ($1, $2, $3, $4) ON CONFLICT (call_key) DO NOTHING`,
    [call.callKey, call.jobId, call.server, call.tool],
  );
  return rowCount === 1;
}

export async function finishMcpCall(pool: Pool, callKey: string, end: { isError: boolean; content: string }) {
  await pool.query('UPDATE mcp_calls SET finished_at = now(), is_error = $2, content = $3 WHERE call_key = $1', [
    callKey,
    end.isError,
    end.content,
  ]);
}

export async function findMcpCall(db: Queryable, callKey: string): Promise<McpCallRecord | undefined> {
  const { rows } = await db.query<{
    started_at: Date;
    finished_at: Date | null;
    is_error: boolean | null;
    content: string | null;
  }>('SELECT started_at, finished_at, is_error, content FROM mcp_calls WHERE call_key = $1', [callKey]);
  const row = rows[0];
  return row
    ? { startedAt: row.started_at, finishedAt: row.finished_at, isError: row.is_error, content: row.content }
    : undefined;
}
