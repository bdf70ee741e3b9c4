import { Link, useSearchParams } from 'react-router';

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
