import { Navigate, useLocation } from 'react-router';

/** `/approvals` (the page before the inbox) leads to `/inbox`, keeping its query (`?project=`), so old links work. */
export function ApprovalsRedirect() {
  const { search } = useLocation();
  return <Navigate to={`/inbox${search}`} replace />;
}
