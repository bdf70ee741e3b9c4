-- MCP client tools (docs/mcp.md, "Attaching an MCP server"): the MCP servers an admin attached to a project, whose
-- tools the levels a scenario grants them (`mcp:`) may call. The server's bearer token is a secrets-store id
-- (`secret_id`), never a value. `tools` is the per-tool policy ({allow, deny, needs_approval}: glob lists), checked
-- (mcp/server-config.ts) before it is stored.
CREATE TABLE IF NOT EXISTS mcp_servers (
  org_id        text NOT NULL,
  project_slug  text NOT NULL,
  name          text NOT NULL,
  transport     text NOT NULL CHECK (transport IN ('http', 'stdio')),
  url           text,
  command       text,
  args          jsonb NOT NULL DEFAULT '[]',
  secret_id     text,
  tools         jsonb NOT NULL DEFAULT '{}',
  timeout_ms    integer NOT NULL,
  updated_by    text NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, project_slug, name),
  CONSTRAINT mcp_servers_project_fkey FOREIGN KEY (org_id, project_slug)
    REFERENCES projects (org_id, slug) ON DELETE CASCADE
);

-- One row per MCP tool call a level made, claimed before the call goes out and finished with its answer: a retried
-- activity answers from the row and never calls the tool twice (a tool may have side effects).
CREATE TABLE IF NOT EXISTS mcp_calls (
  call_key      text PRIMARY KEY,
  job_id        text NOT NULL REFERENCES job_runs (job_id),
  server        text NOT NULL,
  tool          text NOT NULL,
  started_at    timestamptz NOT NULL DEFAULT now(),
  finished_at   timestamptz,
  is_error      boolean,
  content       text
);
CREATE INDEX IF NOT EXISTS mcp_calls_job_idx ON mcp_calls (job_id);
