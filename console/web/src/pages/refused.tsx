import { Link, useRouteError, useSearchParams } from 'react-router';

export function ForbiddenPage() {
  const [params] = useSearchParams();
  const from = params.get('from');
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
