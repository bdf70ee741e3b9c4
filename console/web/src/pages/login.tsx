import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import * as z from 'zod/mini';
import { ApiError, call } from '../api';
import { ErrorNote, Loading } from '../problem';
import { ConsoleConfig } from '../schemas';
import { useAction } from '../use-action';
import { useResource } from '../use-resource';

/** Only console paths are followed after sign-in, so a crafted link cannot send a person elsewhere. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/login') ? next : '/workflows';
}

export function LoginPage() {
  const config = useResource('/api/console/config', ConsoleConfig);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const next = safeNext(params.get('next'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(async () => {
      try {
        await call('/api/auth/sign-in/email', z.unknown(), { method: 'POST', body: { email, password } });
      } catch (err) {
        if (err instanceof ApiError && err.code === 'pending_approval') {
          void navigate('/pending', { replace: true });
          return;
        }
        throw describeSignInError(err);
      }
      void navigate(next, { replace: true });
    });
  }

  return (
    <main id="main" className="login">
      <h1>Sign in to Keel</h1>
      {config.error ? <ErrorNote error={config.error} /> : null}
      {!config.data ? (
        config.error ? null : (
          <Loading what="sign-in options" />
        )
      ) : (
        <>
          {config.data.passwordLogin ? (
            <form onSubmit={(e) => void submit(e)} aria-label="Sign in with email and password">
              <label htmlFor="login-email">Email</label>
              <input
                id="login-email"
                type="email"
                autoComplete="username"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
              <label htmlFor="login-password">Password</label>
              <input
                id="login-password"
                type="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
              <button type="submit" disabled={busy}>
                {busy ? 'Signing in…' : 'Sign in'}
              </button>
            </form>
          ) : null}
          {config.data.oidcProviders.length > 0 ? (
            <ul className="providers">
              {config.data.oidcProviders.map((provider) => (
                <li key={provider.id}>
                  <a
                    className="button"
                    href={`/api/auth/sign-in/${encodeURIComponent(provider.id)}?callbackURL=${encodeURIComponent(
                      window.location.origin + next,
                    )}`}
                  >
                    Sign in with {provider.name}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
          {!config.data.passwordLogin && config.data.oidcProviders.length === 0 ? (
            <p>No sign-in method is configured. Ask the operator of this Keel to enable one.</p>
          ) : null}
          <ErrorNote error={error} />
        </>
      )}
    </main>
  );
}

function describeSignInError(err: unknown): unknown {
  if (!(err instanceof ApiError)) return err;
  if (err.status === 401) return new Error('Wrong email or password.');
  if (err.code === 'account_disabled') return new Error('This account is disabled. Ask an admin to enable it.');
  if (err.status === 429) {
    const wait = err.retryAfterSeconds;
    const minutes = wait ? Math.max(1, Math.ceil(wait / 60)) : 15;
    return new Error(
      `Too many sign-in attempts from this network. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
  }
  return err;
}
