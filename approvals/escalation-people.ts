import { z } from 'zod';
import type { IdentityTables } from '../db/qualified-tables';
import type { Queryable } from '../db/users';

/**
 * Who an escalation names (docs/reminders.md, "Who an escalation reaches"): the people behind `project_owners` or
 * `role:<name>`, read from the identity service's users and their roles. The identity service keeps no per-project
 * membership (spec: identity-service.md names one role, `admin`, and no project field on a user), so a project's owners
 * are the people who hold its settings: the admins, who alone set a project's approval policy, budget and reminders.
 */
export const PersonSchema = z.object({ id: z.string(), email: z.string(), name: z.string().nullable() });
export type Person = z.infer<typeof PersonSchema>;

/** The identity service's internal route that lists the enabled users of a role (INTERNAL_API_TOKEN). */
export const PEOPLE_WITH_ROLE_PATH = '/internal/people-with-role';
export const PeopleWithRoleResponse = z.object({ people: z.array(PersonSchema) });

/** The most people an escalation names: a role held by more is named by its role alone past this many. */
export const MAX_ESCALATION_PEOPLE = 50;

export interface PeopleDirectory {
  /** The enabled (not banned) users whose identity role is `role`, by email. */
  withRole(role: string): Promise<Person[]>;
}

/** The identity role an escalation target stands for: `project_owners` → `admin`, `role:<name>` → `<name>`. */
export function escalationRole(to: string): string {
  return to === 'project_owners' ? 'admin' : to.replace(/^role:/, '');
}

/** The identity tables are reachable from this pool (one database, two schemas: the all-in-one stack, tests). */
export function sharedDatabasePeople(options: { pool: Queryable; tables: IdentityTables }): PeopleDirectory {
  return {
    async withRole(role) {
      const { rows } = await options.pool.query<Person>(
        `SELECT id, email, name FROM ${options.tables.users}
          WHERE role = $1 AND NOT banned ORDER BY lower(email), id LIMIT $2`,
        [role, MAX_ESCALATION_PEOPLE],
      );
      return rows;
    },
  };
}

/** How long an escalation waits for the identity service before it names its target without people. */
const PEOPLE_TIMEOUT_MS = 3_000;

/** The identity service on a database of its own: its internal route, with the shared internal token. */
export function identityServicePeople(options: {
  identityUrl: string;
  /** The token, or where it is read at the moment of use (the secrets store: a rotated token is picked up). */
  internalToken: string | (() => Promise<string | undefined>);
  fetch?: typeof fetch;
}): PeopleDirectory {
  const call = options.fetch ?? fetch;
  return {
    async withRole(role) {
      const token = typeof options.internalToken === 'string' ? options.internalToken : await options.internalToken();
      if (!token) throw new Error('no identity service token (IDENTITY_INTERNAL_TOKEN) to list people with');
      const url = new URL(PEOPLE_WITH_ROLE_PATH, options.identityUrl);
      url.searchParams.set('role', role);
      const response = await call(url, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(PEOPLE_TIMEOUT_MS),
      });
      if (!response.ok)
        throw new Error(`the identity service answered ${response.status} for ${PEOPLE_WITH_ROLE_PATH}`);
      const parsed = PeopleWithRoleResponse.safeParse(await response.json().catch(() => undefined));
      if (!parsed.success) throw new Error(`the identity service answered ${PEOPLE_WITH_ROLE_PATH} with another shape`);
      return parsed.data.people;
    },
  };
}
