import type { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';

/** The three settings an OpenID Connect provider needs; none of them set means password sign-in only. */
export const IDP_VARIABLES = ['IDP_ISSUER_URL', 'IDP_CLIENT_ID', 'IDP_CLIENT_SECRET'] as const;
type IdpVariable = (typeof IDP_VARIABLES)[number];

/**
 * Issuers known from IDP_ID alone. The identity spec lists only IDP_CLIENT_ID and IDP_CLIENT_SECRET: its provider's
 * issuer is implied. These two have one fixed public issuer with discovery; any other provider (a tenant of Microsoft
 * Entra, Okta, Keycloak, a self-hosted GitLab) has an issuer of its own, which only IDP_ISSUER_URL can say.
 */
export const KNOWN_ISSUERS: Readonly<Record<string, string>> = {
  google: 'https://accounts.google.com',
  gitlab: 'https://gitlab.com',
};

/**
 * `env` with IDP_ISSUER_URL filled in from IDP_ID when the provider is configured (IDP_CLIENT_ID set), the issuer is
 * unset and IDP_ID names a known one. Without IDP_CLIENT_ID nothing is derived, so a chart's default IDP_ID alone does
 * not turn a password-only deployment into a half-configured provider.
 */
export function withDerivedIssuer(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null) return raw;
  const env = raw as Record<string, unknown>;
  if (emptyAsUndefined(env.IDP_ISSUER_URL) !== undefined || emptyAsUndefined(env.IDP_CLIENT_ID) === undefined) {
    return env;
  }
  const issuer = typeof env.IDP_ID === 'string' ? KNOWN_ISSUERS[env.IDP_ID] : undefined;
  return issuer === undefined ? env : { ...env, IDP_ISSUER_URL: issuer };
}

/**
 * The provider's settings come together or not at all: with none, the service offers password sign-in only (the OIDC
 * routes answer 404 `oidc_not_configured`); with some, start-up stops naming each missing one. `where` adds to a
 * missing one's line where it may be set (the client secret: its variable or its store file).
 */
export function idpAllOrNone(
  value: Partial<Record<IdpVariable, unknown>>,
  ctx: z.RefinementCtx,
  where: Partial<Record<IdpVariable, string>> = {},
): void {
  const set = IDP_VARIABLES.filter((name) => value[name] !== undefined);
  if (set.length === 0 || set.length === IDP_VARIABLES.length) return;
  for (const name of IDP_VARIABLES.filter((n) => value[n] === undefined)) {
    const issuerHint =
      name === 'IDP_ISSUER_URL'
        ? ` (derived from IDP_ID only for ${Object.keys(KNOWN_ISSUERS).join(', ')}; the spec's table omits it)`
        : '';
    const whereHint = where[name] ? `: ${where[name]}` : '';
    ctx.addIssue({
      code: 'custom',
      path: [name],
      message: `required with ${set.join(', ')}${issuerHint}${whereHint}; OpenID Connect sign-in needs all of ${IDP_VARIABLES.join(', ')}, or none of them for password sign-in only`,
    });
  }
}
