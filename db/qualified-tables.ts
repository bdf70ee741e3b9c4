/**
 * Schema-qualified table names. Identity SQL never relies on search_path: under `npm start` the identity
 * service shares the ingest service's one embedded connection, whose search_path is the ingest schema.
 */
export interface IdentityTables {
  users: string;
  accounts: string;
  sessions: string;
  audit: string;
  /** Disabled users' token revocations still to deliver to an ingest API on another database. */
  revocationOutbox: string;
}

export function identityTables(schema: string): IdentityTables {
  const q = (table: string) => `"${schema}"."${table}"`;
  return {
    users: q('users'),
    accounts: q('accounts'),
    sessions: q('sessions'),
    audit: q('auth_audit_log'),
    revocationOutbox: q('token_revocation_outbox'),
  };
}

/** The ingest service's tables the identity service reads: job_runs is the spend ledger, workflows for ownership. */
export interface IngestTables {
  jobRuns: string;
  workflows: string;
  /** API tokens: disabling a user revokes theirs. */
  apiTokens: string;
}

export function ingestTables(schema: string): IngestTables {
  return {
    jobRuns: `"${schema}"."job_runs"`,
    workflows: `"${schema}"."workflows"`,
    apiTokens: `"${schema}"."api_tokens"`,
  };
}

/** The same tables as the ingest service's own pool names them (its search_path is its schema). */
export const OWN_INGEST_TABLES: IngestTables = { jobRuns: 'job_runs', workflows: 'workflows', apiTokens: 'api_tokens' };
