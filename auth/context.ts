import type { Pool } from 'pg';
import type { BudgetLookup } from '../jobs/budget';
import type { Ledger } from '../jobs/ledger';
import type { AuthSettings } from './config';
import type { OidcClient } from './oidc';
import type { SessionResolver } from './session-resolver';
import type { RevokedUsers } from './revoked-users';
import type { SignInLimiter } from './sign-in-rate-limit';
import type { IdentityTables, IngestTables } from '../db/qualified-tables';
import type { RevocationDelivery } from './token-revocations';

/** What every identity route is built over; assembled once by buildAuthApp. */
export interface AuthContext {
  pool: Pool;
  env: AuthSettings;
  now: () => number;
  tables: IdentityTables;
  /** The ingest schema's tables, for writes the identity service makes there when the two share a database. */
  ingestTables: IngestTables;
  /** Who owns a workflow or job, and what users spent: read from the ingest service's ledger (jobs/ledger.ts). */
  ledger: Ledger;
  budgets: BudgetLookup;
  sessions: SessionResolver;
  /** Users disabled recently: applyAdminChange's callers list them so cached sessions stop at once. */
  revokedUsers: RevokedUsers;
  signInLimiter: SignInLimiter;
  /** Undefined when no identity provider is configured (`npm start` without IDP_*). */
  oidc?: OidcClient;
  /** Delivers disabled users' token revocations to an ingest API on another database; undefined without INGEST_URL. */
  revocations?: RevocationDelivery;
}
