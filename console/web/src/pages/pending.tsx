import { useState } from 'react';
import { Link } from 'react-router';
import * as z from 'zod/mini';
import { call } from '../api';

/** Where a banned (not yet approved) person lands: after a password sign-in, and as BANNED_REDIRECT_URL for OIDC. */
export function PendingPage() {
  const [signedOut, setSignedOut] = useState(false);
  return (
    <main id="main" className="login">
      <h1>Waiting for approval</h1>
      <p>
        Your account exists but an admin has not approved it yet. Keel is invite-only: an admin will approve you (and
        set your monthly budget), and then you can sign in.
      </p>
      <p>If you think this is a mistake, contact an admin of your team.</p>
      <p>
        <button
          type="button"
          onClick={() =>
            void call('/api/auth/sign-out', z.unknown(), { method: 'POST', body: {} }).finally(() => setSignedOut(true))
          }
        >
          Sign out
        </button>{' '}
        <Link to="/login">Back to sign in</Link>
      </p>
      {signedOut ? <p role="status">Signed out.</p> : null}
    </main>
  );
}
