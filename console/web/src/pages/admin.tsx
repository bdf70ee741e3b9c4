import { useState } from 'react';
import * as z from 'zod/mini';
import { call } from '../api';
import { ErrorNote, LoadProblem, Loading } from '../problem';
import { AdminUsers, type AdminUser } from '../schemas';
import { useSession } from '../session';
import { formatCents } from '../time';
import { useResource } from '../use-resource';
import { ForbiddenPage } from './refused';
import { ScrollTable } from '../scroll-table';

export function AdminPage() {
  const { user } = useSession();
  if (user.role !== 'admin') return <ForbiddenPage />;
  return <Users selfId={user.id} />;
}

function Users({ selfId }: { selfId: string }) {
  const users = useResource('/api/admin/users', AdminUsers);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function change(target: AdminUser, body: Record<string, unknown>, done: string) {
    setError(null);
    setNotice(null);
    try {
      await call(`/api/admin/users/${encodeURIComponent(target.id)}`, z.unknown(), { method: 'PATCH', body });
      setNotice(`${target.email}: ${done}.`);
    } catch (err) {
      // The service's own refusal (e.g. an admin disabling itself) is shown as it words it.
      setError(err);
    }
    // Status and spend are the list's to say; read it again after every change, refused or not.
    users.reload();
  }

  if (users.error) return <LoadProblem error={users.error} />;
  return (
    <section>
      <h1>Admin · users</h1>
      <div aria-live="polite">
        <ErrorNote error={error} />
        {notice ? <p role="status">{notice}</p> : null}
      </div>
      {users.loading && !users.data ? <Loading what="users" /> : null}
      {users.data?.users.length === 0 ? <p className="empty">No users yet.</p> : null}
      {users.data ? (
        <ScrollTable columns={['User', 'Status', 'Role', 'Spent this month', 'Monthly budget', 'Actions']}>
          {users.data.users.map((u) => (
            <UserRow key={u.id} user={u} self={u.id === selfId} change={change} />
          ))}
        </ScrollTable>
      ) : null}
    </section>
  );
}

type Change = (target: AdminUser, body: Record<string, unknown>, done: string) => Promise<void>;

function UserRow({ user, self, change }: { user: AdminUser; self: boolean; change: Change }) {
  const [budget, setBudget] = useState(user.budgetCents === null ? '' : (user.budgetCents / 100).toFixed(2));
  const id = `user-${user.id}`.replace(/[^a-zA-Z0-9_-]/g, '_');
  const cents = Math.round(Number(budget) * 100);
  const budgetValid = budget.trim() !== '' && Number.isFinite(cents) && cents >= 0;
  return (
    <tr data-email={user.email}>
      <th scope="row">
        {user.email}
        {self ? <span className="hint"> (you)</span> : null}
      </th>
      <td>
        <span className={`badge status-${user.status}`}>{user.status}</span>
      </td>
      <td>
        <label htmlFor={`${id}-role`} className="visually-hidden">
          Role of {user.email}
        </label>
        <select
          id={`${id}-role`}
          value={user.role}
          onChange={(e) => void change(user, { role: e.target.value }, `role set to ${e.target.value}`)}
        >
          <option value="user">user</option>
          <option value="admin">admin</option>
        </select>
      </td>
      <td>
        {formatCents(user.spentCents)}
        {user.overBudget ? <span className="badge status-failed"> over budget</span> : null}
      </td>
      <td>
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (budgetValid) void change(user, { budgetCents: cents }, `budget set to ${formatCents(cents)}`);
          }}
        >
          <label htmlFor={`${id}-budget`} className="visually-hidden">
            Monthly budget of {user.email} in USD
          </label>
          <input
            id={`${id}-budget`}
            inputMode="decimal"
            size={7}
            value={budget}
            onChange={(e) => setBudget(e.target.value)}
            aria-invalid={!budgetValid && budget !== ''}
          />
          <button type="submit" className="small" disabled={!budgetValid}>
            Set budget<span className="visually-hidden"> of {user.email}</span>
          </button>
        </form>
      </td>
      <td>
        {user.status === 'pending' ? (
          <button type="button" className="small" onClick={() => void change(user, { disabled: false }, 'approved')}>
            Approve<span className="visually-hidden"> {user.email}</span>
          </button>
        ) : user.status === 'disabled' ? (
          <button type="button" className="small" onClick={() => void change(user, { disabled: false }, 'enabled')}>
            Enable<span className="visually-hidden"> {user.email}</span>
          </button>
        ) : (
          <button
            type="button"
            className="small secondary"
            onClick={() => void change(user, { disabled: true }, 'disabled')}
          >
            Disable<span className="visually-hidden"> {user.email}</span>
          </button>
        )}
      </td>
    </tr>
  );
}
