import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type * as OidcProviderModule from 'oidc-provider' with { 'resolution-mode': 'import' };

// oidc-provider is ESM-only; like auth/esm.ts, load it with require (require(esm) in Node, compiled by jest).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { default: Provider } = require('oidc-provider') as typeof OidcProviderModule;

/** Someone with an account at the provider: `sub` is their stable id there. */
export interface ProviderAccount {
  sub: string;
  email: string;
  name?: string;
}

/**
 * A real OpenID Connect provider (panva's oidc-provider, the certified implementation) on a loopback port,
 * with one confidential client. The only shortcut is the login screen: whoever `loginAs` names is signed in
 * and consents at the interaction step, so a test can walk the redirects without a browser.
 */
export interface FakeOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The account the next interaction signs in as. */
  loginAs(account: ProviderAccount): void;
  /** Token requests the provider answered (to prove the code exchange happened with PKCE). */
  readonly tokenRequests: number;
  close(): Promise<void>;
}

type Stored = Record<string, unknown> & { uid?: string; userCode?: string; grantId?: string; consumed?: number };

/** The provider's storage, in this process's memory, per provider instance (its default adapter warns). */
function memoryAdapter() {
  const store = new Map<string, Stored>();
  return class MemoryAdapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    upsert(id: string, payload: Stored) {
      store.set(this.key(id), payload);
      return Promise.resolve();
    }
    find(id: string) {
      return Promise.resolve(store.get(this.key(id)));
    }
    findByUid(uid: string) {
      return Promise.resolve([...store.values()].find((p) => p.uid === uid));
    }
    findByUserCode(userCode: string) {
      return Promise.resolve([...store.values()].find((p) => p.userCode === userCode));
    }
    consume(id: string) {
      const payload = store.get(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      return Promise.resolve();
    }
    destroy(id: string) {
      store.delete(this.key(id));
      return Promise.resolve();
    }
    revokeByGrantId(grantId: string) {
      for (const [key, payload] of store) if (payload.grantId === grantId) store.delete(key);
      return Promise.resolve();
    }
  };
}

export async function startFakeOidcProvider(options: { redirectUris: string[] }): Promise<FakeOidcProvider> {
  const accounts = new Map<string, ProviderAccount>();
  let current: ProviderAccount | undefined;
  let tokenRequests = 0;
  let handler: http.RequestListener = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'keel-identity';
  const clientSecret = crypto.randomBytes(24).toString('base64url');
  const signingKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

  const provider = new Provider(issuer, {
    adapter: memoryAdapter(),
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [{ ...signingKey, kid: 'test', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [crypto.randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    pkce: { required: () => true, methods: ['S256'] },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email: account.email, email_verified: true, name: account.name }),
      };
    },
  });
  const callback = provider.callback();

  handler = (req, res) => {
    if (req.method === 'POST' && req.url === '/token') tokenRequests += 1;
    if (!req.url?.startsWith('/interaction/')) return void callback(req, res);
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (!current) throw new Error('the test did not say who signs in (loginAs)');
        accounts.set(current.sub, current);
        const grant = new provider.Grant({ accountId: current.sub, clientId });
        grant.addOIDCScope(typeof details.params.scope === 'string' ? details.params.scope : 'openid');
        const grantId = await grant.save();
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: current.sub }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
      } catch (err) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
      }
    })();
  };

  return {
    issuer,
    clientId,
    clientSecret,
    loginAs(account) {
      current = account;
    },
    get tokenRequests() {
      return tokenRequests;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
