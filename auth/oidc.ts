import { loadOpenIdClient, type OpenIdClientModule } from './esm';

type Configuration = InstanceType<OpenIdClientModule['Configuration']>;

export interface OidcSettings {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  /** `${AUTHLIB_URL}/api/auth/callback/<idp>`, registered at the provider. */
  redirectUri: string;
}

/** What the callback needs to finish the flow it started: checked PKCE verifier and state. */
export interface PendingAuthorization {
  state: string;
  verifier: string;
}

export interface ProviderIdentity {
  sub: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
}

/**
 * The authorization-code flow with PKCE (S256) and state against any OpenID Connect provider, on
 * openid-client. Discovery runs on first use, not at start, so the service starts while the provider is down.
 */
export class OidcClient {
  private readonly lib = loadOpenIdClient();
  private configuration?: Promise<Configuration>;

  constructor(private readonly settings: OidcSettings) {}

  async start(): Promise<{ url: string; pending: PendingAuthorization }> {
    const config = await this.discover();
    const verifier = this.lib.randomPKCECodeVerifier();
    const state = this.lib.randomState();
    const url = this.lib.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUri,
      scope: 'openid email profile',
      code_challenge: await this.lib.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    return { url: url.href, pending: { state, verifier } };
  }

  /** Exchanges the code (checking state and PKCE) and reads the user's claims; throws on any mismatch. */
  async finish(callbackUrl: URL, pending: PendingAuthorization): Promise<ProviderIdentity> {
    const config = await this.discover();
    const tokens = await this.lib.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('the provider returned no ID token');
    let merged: Record<string, unknown> = { ...claims };
    if (typeof claims.email !== 'string') {
      // Some providers put email only in userinfo.
      merged = { ...(await this.lib.fetchUserInfo(config, tokens.access_token, claims.sub)), ...merged };
    }
    return {
      sub: claims.sub,
      email: typeof merged.email === 'string' ? merged.email.toLowerCase() : undefined,
      emailVerified: merged.email_verified === true,
      name: typeof merged.name === 'string' ? merged.name : undefined,
    };
  }

  private discover(): Promise<Configuration> {
    this.configuration ??= this.lib
      .discovery(
        new URL(this.settings.issuerUrl),
        this.settings.clientId,
        this.settings.clientSecret,
        undefined,
        // Plain http is accepted only for a loopback issuer (the config refuses it elsewhere).
        new URL(this.settings.issuerUrl).protocol === 'http:' ? { execute: [this.lib.allowInsecureRequests] } : {},
      )
      .catch((err: unknown) => {
        this.configuration = undefined;
        throw err;
      });
    return this.configuration;
  }
}
