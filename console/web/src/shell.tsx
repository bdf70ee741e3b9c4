import { useEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { call } from './api';
import { LoadProblem, Loading } from './problem';
import { ConsoleConfig, Session } from './schemas';
import { SessionProvider, type SessionValue } from './session';
import { KeyboardShortcuts } from './shortcuts';
import { useTableCards } from './table-cards';
import { ThemeMenu } from './theme-menu';
import { useResource } from './use-resource';
import { NeedsYouLink } from './inbox/needs-you-link';
import * as z from 'zod/mini';

const links = [
  { to: '/workflows', label: 'Workflows' },
  { to: '/runs/new', label: 'New run' },
  // Rendered with its live count (inbox/needs-you-link.tsx).
  { to: '/inbox', label: 'Needs you' },
  { to: '/knowledge', label: 'Knowledge' },
  { to: '/models', label: 'Models' },
  { to: '/budget', label: 'My budget' },
];

/** Every signed-in page: the navigation bar, the session, and focus moved to the page on navigation. */
export function AppShell() {
  const config = useResource('/api/console/config', ConsoleConfig);
  const session = useResource('/api/session', Session);
  if (config.error || session.error) return <LoadProblem error={session.error ?? config.error} />;
  if (!config.data || !session.data) return <Loading what="the console" />;
  return <SignedIn value={{ user: session.data.user, config: config.data }} />;
}

function SignedIn({ value }: { value: SessionValue }) {
  const navigate = useNavigate();
  const location = useLocation();
  const main = useRef<HTMLElement>(null);
  const [signingOut, setSigningOut] = useState(false);
  useTableCards(main);

  useEffect(() => {
    // A page change is announced to keyboard and screen-reader users by moving focus to the new page.
    main.current?.focus({ preventScroll: true });
  }, [location.pathname]);

  async function signOut() {
    setSigningOut(true);
    try {
      await call('/api/auth/sign-out', z.unknown(), { method: 'POST', body: {} });
    } finally {
      void navigate('/login', { replace: true });
    }
  }

  return (
    <SessionProvider value={value}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Keel</span>
        <nav aria-label="Main">
          <ul>
            {links.map((link) => (
              <li key={link.to}>
                {link.to === '/inbox' ? (
                  <NeedsYouLink user={value.user} />
                ) : (
                  <NavLink to={link.to}>{link.label}</NavLink>
                )}
              </li>
            ))}

            {value.user.role === 'admin' ? (
              <li>
                <NavLink to="/admin">Admin</NavLink>
              </li>
            ) : null}
          </ul>
        </nav>
        <div className="who">
          <ThemeMenu />
          <span className="wrap-anywhere">{value.user.email}</span>
          <button type="button" onClick={() => void signOut()} disabled={signingOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        <Outlet />
      </main>
      <KeyboardShortcuts isAdmin={value.user.role === 'admin'} />
    </SessionProvider>
  );
}
