import { Link, useRouteError, useSearchParams } from 'react-router';

/** Refusals whose reason is a missing role, not someone else's data (`/forbidden?reason=admin_required`). */
export const ADMIN_REQUIRED = 'admin_required';

export function ForbiddenPage() {
  const [params] = useSearchParams();
  const from = params.get('from');
  if (params.get('reason') === ADMIN_REQUIRED) return <AdminsOnlyPage from={from} />;
  return (
    <section>
      <h1>Not yours to see</h1>
      <p>
        {from ? <code>{from}</code> : 'This page'} belongs to another user. Workflows and jobs are visible to the person
        who started them and to admins.
      </p>
      <p>
        <Link to="/workflows">Back to your workflows</Link>
      </p>
    </section>
  );
}

/** A signed-in person without the admin role on an admin page (or refused by an admin-only call). */
export function AdminsOnlyPage({ from = null }: { from?: string | null }) {
  return (
    <section>
      <h1>For admins only</h1>
      <p>
        {from ? <code>{from}</code> : 'This page'} is for admins: it manages users, their roles and budgets. Your
        account is not an admin. If you need something changed, ask an admin of this Keel.
      </p>
      <p>
        <Link to="/workflows">Back to your workflows</Link>
      </p>
    </section>
  );
}

export function NotFoundPage() {
  const [params] = useSearchParams();
  const from = params.get('from');
  return (
    <section>
      <h1>Not found</h1>
      <p>{from ? <code>{from}</code> : 'This address'} does not exist (or no longer does).</p>
      <p>
        <Link to="/workflows">Back to your workflows</Link>
      </p>
    </section>
  );
}

/** A page that failed to render: said plainly, with a way on, instead of a blank screen. */
export function CrashPage() {
  const error = useRouteError();
  return (
    <main id="main" className="login">
      <h1>This page failed</h1>
      <p>The console hit an error it did not expect{error instanceof Error ? `: ${error.message}` : ''}.</p>
      <p>
        <a href="/workflows">Back to your workflows</a> or reload the page.
      </p>
    </main>
  );
}
