/**
 * The usage text of the commands that load much (the database, the knowledge index, connectors, routing), apart from
 * them: `keel --help` and `keel job` print it or need none of it, and load only the HTTP client (cli/keel.ts).
 */

export const MODELS_USAGE = `  keel models list [--json]
  keel models resolve --role <L1.team_lead|…> --budget <free|cheap|frontier> [--require <name>]... [--json]
  keel models check [--catalog <file>] [--controls <file>]
  keel models doctor <provider>`;

export const KB_USAGE = `  keel kb index (--all | <hub path>...)
      Bring the knowledge index in line with these hub files (KB_HUB_DIR): insert, update or delete each.
  keel kb reembed
      Rebuild every vector with the configured embedder (EMBEDDING_PROVIDER, EMBEDDING_MODEL, …), which lifts
      the guard that refuses a switched embedder.
  keel kb-mcp
      A read-only MCP server on stdio (tools kb_query, kb_doc) for KEEL_API_URL with KEEL_TOKEN.`;

export const CONNECTOR_USAGE = `  keel connector run --connector notion|slack|github
      Run a connector here, now: clone the hub (KB_HUB_URL) into a temporary directory, write changed records under
      sources/<service>/, index them, store the cursor, discard the directory. Exits 1 if the index refused a file.
  keel connector trigger notion|slack|github [--wait]
      Start a one-off run of the connector's schedule on the workers (TEMPORAL_ADDRESS, else the running stack's);
      --wait waits for it and prints its summary.
  keel connector reset --connector notion|slack|github
      Forget the stored cursor: the next run reads everything again (unchanged records are not rewritten).
  keel connector backfill --connector slack --export <dir> --channel <id|name>
      Re-seed one channel from a workspace export, written and indexed the way a run does.`;

export const MIGRATE_USAGE = `  keel migrate
      Apply the ingest migrations (POSTGRES_DSN, POSTGRES_SCHEMA) and, with DATABASE_URL set, the identity service's
      (DATABASE_SCHEMA); with CONSOLE_API_TOKEN set, register it as the console's token. A deployment's release job:
      safe to run while the previous release serves, and again (nothing applied twice).`;
