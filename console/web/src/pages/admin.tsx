import { useState } from 'react';
import * as z from 'zod/mini';
import { call } from '../api';
import { AddUserForm } from '../admin/add-user-form';
import { parseBudget } from '../admin/budget-input';
import { ConfirmDialog } from '../admin/confirm-dialog';
import { TenantBudgetsSection } from '../admin/tenant-budgets';
import { WebhookSubscriptionsSection } from '../webhooks/subscriptions';
import { FieldError, invalidProps } from '../forms/field-error';
import { ErrorNote, LoadProblem, Loading } from '../problem';
import { AdminUsers, type AdminUser } from '../schemas';
import { useSession } from '../session';
import { formatCents } from '../time';
import { useResource } from '../use-resource';
import { AdminsOnlyPage } from './refused';
import { ScrollTable } from '../scroll-table';

export function AdminPage() {
  const { user } = useSession();
  if (user.role !== 'admin') return <AdminsOnlyPage />;
  return (
    <>
      <Users selfId={user.id} />
      <TenantBudgetsSection />
      <WebhookSubscriptionsSection />
    </>
  );
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
        <ScrollTable columns={['User', 'Status', 'Role', 'Spent this month', 'Left', 'Monthly budget', 'Actions']}>
          {users.data.users.map((u) => (
            <UserRow key={u.id} user={u} self={u.id === selfId} change={change} />
          ))}
        </ScrollTable>
      ) : null}
      <AddUserForm
        onAdded={(email) => {
          setError(null);
          setNotice(`${email} added: pending approval. Approve them in the list when they should get in.`);
          users.reload();
        }}
      />
    </section>
  );
}

/** What is left of a user's month from an identity service that does not say it: never negative (jobs/budget.ts). */
function leftOf(user: AdminUser): number {
  return Math.max(0, (user.budgetCents ?? 0) - user.spentCents);
}

type Change = (target: AdminUser, body: Record<string, unknown>, done: string) => Promise<void>;

function UserRow({ user, self, change }: { user: AdminUser; self: boolean; change: Change }) {
  const [budget, setBudget] = useState(user.budgetCents === null ? '' : (user.budgetCents / 100).toFixed(2));
  const [budgetTried, setBudgetTried] = useState(false);
  const [newRole, setNewRole] = useState<string | null>(null);
  const id = `user-${user.id}`.replace(/[^a-zA-Z0-9_-]/g, '_');
  const parsed = parseBudget(budget);
  // Said as soon as the text cannot be a budget; an empty field only once Set budget is pressed.
  const budgetError = parsed.ok || (budget.trim() === '' && !budgetTried) ? null : parsed.reason;
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
        <select id={`${id}-role`} value={user.role} onChange={(e) => setNewRole(e.target.value)}>
          <option value="user">user</option>
          <option value="admin">admin</option>
        </select>
        {newRole !== null ? (
          <ConfirmDialog
            title={`Make ${user.email} ${newRole === 'admin' ? 'an admin' : 'a user'}?`}
            confirmLabel={`Change role to ${newRole}`}
            onCancel={() => setNewRole(null)}
            onConfirm={() => {
              const role = newRole;
              setNewRole(null);
              void change(user, { role }, `role set to ${role}`);
            }}
          >
            <p>
              {newRole === 'admin'
                ? 'Admins see every workflow and job, manage users and budgets, and are exempt from budgets.'
                : 'They lose admin rights: they will see only their own workflows and be held to their budget.'}
            </p>
          </ConfirmDialog>
        ) : null}
      </td>
      <td>
        {formatCents(user.spentCents)}
        {user.overBudget ? <span className="badge status-failed"> over budget</span> : null}
      </td>
      <td data-testid="user-left">
        {user.role === 'admin' ? 'no cap (admin)' : formatCents(user.remainingCents ?? leftOf(user))}
      </td>
      <td>
        <form
          className="inline-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setBudgetTried(true);
            if (parsed.ok)
              void change(user, { budgetCents: parsed.cents }, `budget set to ${formatCents(parsed.cents)}`);
            else document.getElementById(`${id}-budget`)?.focus();
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
            {...invalidProps(`${id}-budget-error`, budgetError)}
          />
          <button type="submit" className="small">
            Set budget<span className="visually-hidden"> of {user.email}</span>
          </button>
        </form>
        <FieldError id={`${id}-budget-error`} message={budgetError} />
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
