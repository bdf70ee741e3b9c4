import { authEnv, type AuthEnv } from '../auth/config';
import { configError, parseSlices } from '../config/parse-env';

/** The identity service alone (production): the spec's variables, every required one set. */
export interface IdentityConfig {
  identity: AuthEnv;
}

/** Parses every variable the identity service uses, once, before anything opens; every bad one in one message. */
export function loadConfig(env: NodeJS.ProcessEnv): IdentityConfig {
  const { values, problems } = parseSlices({ identity: authEnv }, env);
  if (values.identity?.INGEST_URL && !values.identity.INTERNAL_API_TOKEN) {
    problems.push('  INGEST_URL: needs INTERNAL_API_TOKEN, the token the ingest API knows as IDENTITY_INTERNAL_TOKEN');
  }
  if (problems.length > 0 || !values.identity) throw configError('keel auth', problems);
  return { identity: values.identity };
}
