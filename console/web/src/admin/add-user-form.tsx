import { useState, type FormEvent } from 'react';
import { call } from '../api';
import { FieldError, invalidProps } from '../forms/field-error';
import { ErrorNote } from '../problem';
import { AdminUserCreated } from '../schemas';
import { useSession } from '../session';
import { useAction } from '../use-action';

/** The identity service's password length rule (auth/password.ts PASSWORD_MIN). */
const PASSWORD_MIN = 8;
/** What the identity service accepts as an email, roughly: the service's own check has the last word. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Mode = 'invite' | 'password';

function problems(email: string, mode: Mode, password: string) {
  return {
    email:
      email.trim() === ''
        ? 'Enter the person’s email address.'
        : EMAIL.test(email.trim())
          ? null
          : `“${email.trim()}” is not an email address.`,
    password:
      mode === 'password' && password.length < PASSWORD_MIN
        ? `A password needs at least ${PASSWORD_MIN} characters (${password.length} so far).`
        : null,
  };
}

/**
 * Adds a user through the identity service (POST /api/admin/users), by its rule for every new user: the account waits
 * for approval in the list below. "Invite" makes no password: the person signs in with the identity provider using
 * this email. "Password" makes an email-and-password account whose password the admin passes on.
 */
export function AddUserForm({ onAdded }: { onAdded: (email: string) => void }) {
  const { config } = useSession();
  const provider = config.oidcProviders[0]?.name ?? null;
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<'user' | 'admin'>('user');
  const [mode, setMode] = useState<Mode>(provider ? 'invite' : 'password');
  const [password, setPassword] = useState('');
  const [tried, setTried] = useState(false);
  const { busy, error, run } = useAction();

  const invalid = problems(email, mode, password);
  const shown = tried ? invalid : { email: null, password: null };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (invalid.email || invalid.password) {
      document.getElementById(invalid.email ? 'new-user-email' : 'new-user-password')?.focus();
      return;
    }
    const added = await run(() =>
      call('/api/admin/users', AdminUserCreated, {
        method: 'POST',
        body: {
          email: email.trim(),
          role,
          ...(name.trim() ? { name: name.trim() } : {}),
          ...(mode === 'password' ? { password } : {}),
        },
      }),
    );
    if (!added) return;
    onAdded(added.user.email);
    setEmail('');
    setName('');
    setPassword('');
    setTried(false);
  }

  return (
    <section aria-labelledby="add-user-title" className="add-user">
      <h2 id="add-user-title">Add a user</h2>
      <form className="stack" noValidate onSubmit={(e) => void submit(e)}>
        <label htmlFor="new-user-email">Email</label>
        <input
          id="new-user-email"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          {...invalidProps('new-user-email-error', shown.email)}
        />
        <FieldError id="new-user-email-error" message={shown.email} />

        <label htmlFor="new-user-name">Name (optional)</label>
        <input id="new-user-name" value={name} onChange={(e) => setName(e.target.value)} />

        <label htmlFor="new-user-role">Role</label>
        <select id="new-user-role" value={role} onChange={(e) => setRole(e.target.value as 'user' | 'admin')}>
          <option value="user">user</option>
          <option value="admin">admin</option>
        </select>

        <fieldset>
          <legend>How they sign in</legend>
          <label className="choice">
            <input type="radio" name="new-user-mode" checked={mode === 'invite'} onChange={() => setMode('invite')} />
            <span>
              <strong>Invite</strong> —{' '}
              {provider
                ? `they sign in with ${provider} using this email`
                : 'they sign in with the identity provider using this email (none is set up for this console yet)'}
            </span>
          </label>
          <label className="choice">
            <input
              type="radio"
              name="new-user-mode"
              checked={mode === 'password'}
              onChange={() => setMode('password')}
            />
            <span>
              <strong>Password</strong> — an email and password account; you pass the password on
            </span>
          </label>
        </fieldset>
        {mode === 'password' ? (
          <>
            <label htmlFor="new-user-password">Password</label>
            <input
              id="new-user-password"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              {...invalidProps('new-user-password-error', shown.password, 'new-user-password-hint')}
            />
            <p id="new-user-password-hint" className="hint">
              At least {PASSWORD_MIN} characters.
            </p>
            <FieldError id="new-user-password-error" message={shown.password} />
          </>
        ) : null}
        <p className="hint">New users wait for approval: approve them in the list below before they can sign in.</p>
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Adding…' : mode === 'invite' ? 'Invite user' : 'Create user'}
        </button>
      </form>
    </section>
  );
}
