import { NavLink } from 'react-router';
import type { SessionUser } from '../schemas';
import { countLabel } from './needs-you';
import { useNeedsYou } from './use-needs-you';
import './inbox.css';

/** The nav's "Needs you" link with the live count of what waits for the signed-in person (docs/console.md). */
export function NeedsYouLink({ user }: { user: SessionUser }) {
  const { counts } = useNeedsYou(user, null);
  const label = counts ? countLabel(counts) : null;
  return (
    <NavLink to="/inbox">
      Needs you
      {label !== null ? (
        <span className={`nav-count${label === '0' ? ' none' : ''}`} data-testid="needs-you-count">
          <span className="visually-hidden">: </span>
          {label}
          <span className="visually-hidden"> waiting</span>
        </span>
      ) : null}
    </NavLink>
  );
}
