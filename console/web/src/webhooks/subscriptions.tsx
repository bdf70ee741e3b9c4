import { useState } from 'react';
import * as z from 'zod/mini';
import { call, seg } from '../api';
import { TenantBudgets } from '../admin/tenant-budget-schemas';
import { ErrorNote, LoadProblem, Loading } from '../problem';
import { ScrollTable } from '../scroll-table';
import { Time } from '../time-tag';
import { useResource } from '../use-resource';
import { WEBHOOK_EVENTS, WebhookSubscriptions, WithSecret, type WebhookSubscription } from './schemas';

const pathOf = (org: string, slug: string) =>
  `/api/v1/admin/webhook-subscriptions/orgs/${seg(org)}/projects/${seg(slug)}`;

/**
 * The admin's project webhook subscriptions (docs/webhooks.md, "Subscribing a project"): every job of a project
 * delivers its subscribed events to each endpoint. A secret is shown once, when the endpoint is added or its secret
 * rotated; a rotation keeps the old secret signing for a day, so receivers can switch over.
 */
export function WebhookSubscriptionsSection() {
  const subs = useResource('/api/v1/admin/webhook-subscriptions', WebhookSubscriptions);
  // The projects an admin can subscribe: the same list the budgets below show.
  const projects = useResource('/api/v1/admin/budgets', TenantBudgets);
  const [error, setError] = useState<unknown>(null);
  const [secret, setSecret] = useState<{ what: string; secret: string } | null>(null);
  const [project, setProject] = useState('');
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['final', 'error']);

  async function act(what: () => Promise<void>) {
    setError(null);
    setSecret(null);
    try {
      await what();
    } catch (err) {
      setError(err);
    }
    subs.reload();
  }

  const add = () =>
    act(async () => {
      const [org, slug] = project.split('/');
      const created = await call(pathOf(org!, slug!), WithSecret, { method: 'POST', body: { url, events } });
      setSecret({ what: `New endpoint ${created.url} (${created.subscription_id})`, secret: created.secret });
      setUrl('');
    });
  const rotate = (sub: WebhookSubscription) =>
    act(async () => {
      const rotated = await call(
        `${pathOf(sub.org_id, sub.project_slug)}/${seg(sub.subscription_id)}/rotate-secret`,
        WithSecret,
        { method: 'POST', body: {} },
      );
      setSecret({ what: `New secret of ${rotated.url} (${rotated.subscription_id})`, secret: rotated.secret });
    });
  const remove = (sub: WebhookSubscription) =>
    act(async () => {
      await call(`${pathOf(sub.org_id, sub.project_slug)}/${seg(sub.subscription_id)}`, z.unknown(), {
        method: 'DELETE',
      });
    });

  const projectList = projects.data?.projects ?? [];
  return (
    <section aria-labelledby="webhook-subscriptions-title">
      <h2 id="webhook-subscriptions-title">Project webhooks</h2>
      <p className="hint">
        Every job of the project posts its subscribed events, signed, to the endpoint (docs/webhooks.md). The signing
        secret is shown once: copy it to the receiver. Rotating keeps the old secret valid for a day.
      </p>
      <div aria-live="polite">
        <ErrorNote error={error} />
        {secret ? (
          <div role="status" className="secret-once">
            <p>
              {secret.what}. Its signing secret, shown only now:
              <br />
              <code data-testid="webhook-secret">{secret.secret}</code>
            </p>
          </div>
        ) : null}
      </div>
      <form
        className="inline-form"
        aria-label="Add a project webhook"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <label htmlFor="webhook-project">Project</label>
        <select id="webhook-project" value={project} onChange={(e) => setProject(e.target.value)} required>
          <option value="">Pick a project</option>
          {projectList.map((p) => (
            <option key={`${p.org_id}/${p.project_slug}`} value={`${p.org_id}/${p.project_slug}`}>
              {p.name} ({p.org_id}/{p.project_slug})
            </option>
          ))}
        </select>
        <label htmlFor="webhook-url">Endpoint URL</label>
        <input
          id="webhook-url"
          type="url"
          size={40}
          placeholder="https://hooks.example.com/keel"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          required
        />
        <fieldset>
          <legend>Events</legend>
          {WEBHOOK_EVENTS.map((kind) => (
            <label key={kind}>
              <input
                type="checkbox"
                checked={events.includes(kind)}
                onChange={(e) => setEvents(e.target.checked ? [...events, kind] : events.filter((k) => k !== kind))}
              />{' '}
              {kind}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="small" disabled={project === '' || url === '' || events.length === 0}>
          Add webhook
        </button>
      </form>
      {subs.error ? <LoadProblem error={subs.error} /> : null}
      {subs.loading && !subs.data ? <Loading what="project webhooks" /> : null}
      {subs.data?.subscriptions.length === 0 ? <p className="empty">No project webhooks yet.</p> : null}
      {subs.data && subs.data.subscriptions.length > 0 ? (
        <ScrollTable columns={['Project', 'Endpoint', 'Events', 'Secret', 'Actions']}>
          {subs.data.subscriptions.map((sub) => (
            <tr key={sub.subscription_id} data-subscription={sub.subscription_id}>
              <th scope="row">
                {sub.org_id}/{sub.project_slug}
              </th>
              <td>
                <code>{sub.url}</code>
                <div className="hint">{sub.subscription_id}</div>
              </td>
              <td>{sub.events.join(', ')}</td>
              <td>
                {sub.previous_secret_expires_at ? (
                  <span>
                    rotated; the previous secret signs too until <Time iso={sub.previous_secret_expires_at} />
                  </span>
                ) : sub.rotated_at ? (
                  <span>
                    rotated <Time iso={sub.rotated_at} />
                  </span>
                ) : (
                  <span>
                    since <Time iso={sub.created_at} />
                  </span>
                )}
              </td>
              <td>
                <button type="button" className="small secondary" onClick={() => void rotate(sub)}>
                  Rotate secret<span className="visually-hidden"> of {sub.url}</span>
                </button>{' '}
                <button type="button" className="small secondary danger" onClick={() => void remove(sub)}>
                  Delete<span className="visually-hidden"> {sub.url}</span>
                </button>
              </td>
            </tr>
          ))}
        </ScrollTable>
      ) : null}
    </section>
  );
}
