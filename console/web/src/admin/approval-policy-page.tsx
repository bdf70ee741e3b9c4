import { useState } from 'react';
import { Link, useParams } from 'react-router';
import * as z from 'zod/mini';
import { ApiError, call, seg } from '../api';
import { invalidProps } from '../forms/field-error';
import { personLabel, usePeople } from '../people';
import { ErrorNote, LoadProblem, Loading } from '../problem';
import { AdminsOnlyPage } from '../pages/refused';
import { ScrollTable } from '../scroll-table';
import { useSession } from '../session';
import { Time } from '../time-tag';
import { useAction } from '../use-action';
import { useResource } from '../use-resource';
import './approval-policy.css';
import { DryRun, PolicyHistory, PolicyView, policyIssues, type DryRunApproval } from './approval-policy-schemas';

/** What the editor starts with on a project without a policy: the shape of one, deciding nothing yet. */
const STARTER = `# Rules are tried in order; the first whose conditions all hold decides. No match: a person decides.
rules: []
`;

/**
 * A project's approval policy, for admins (docs/approval-policies.md): the stored policy as YAML, edited and saved in
 * place, its validation errors listed under the editor, a dry run of the text being edited against the project's last
 * approvals, and every earlier change. All through the ingest API's admin routes behind the console's proxy.
 */
export function ApprovalPolicyPage() {
  const { user } = useSession();
  const { org = '', slug = '' } = useParams();
  if (user.role !== 'admin') return <AdminsOnlyPage />;
  return <PolicyEditor key={`${org}/${slug}`} org={org} slug={slug} />;
}

function PolicyEditor({ org, slug }: { org: string; slug: string }) {
  const base = `/api/v1/admin/approval-policies/orgs/${seg(org)}/projects/${seg(slug)}`;
  const current = useResource(base, PolicyView);
  const history = useResource(`${base}/history`, PolicyHistory);
  const [text, setText] = useState<string | null>(null);
  const [issues, setIssues] = useState<string[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [last, setLast] = useState('20');
  const [dryRun, setDryRun] = useState<DryRun | null>(null);
  const save = useAction();
  const tryIt = useAction();
  // Who set the policy and each version, and who decided the dry run's approvals, named as the console names people.
  const people = usePeople([
    current.data?.updated_by,
    ...(history.data?.changes.map((c) => c.changed_by) ?? []),
    ...(dryRun?.approvals.map((a) => a.decided_by).filter((by) => by !== null && !NOT_PEOPLE.test(by)) ?? []),
  ]);

  // A 404 is "no policy yet", not a missing page: the editor starts from the starter text.
  const none = current.error instanceof ApiError && current.error.status === 404;
  const loaded = current.data?.policy_yaml ?? (none ? STARTER : null);
  // What the editor holds: the person's text once they edit, the stored policy until then.
  const value = text ?? loaded;

  /** A refusal of the document is shown as its issues under the editor; any other as a note. */
  function refused(err: unknown): boolean {
    if (err instanceof ApiError && err.code === 'invalid_policy') {
      setIssues(policyIssues(err.message));
      document.getElementById('policy-yaml')?.focus();
      return true;
    }
    return false;
  }

  async function onSave() {
    setNotice(null);
    setIssues([]);
    const saved = await save.run(async () => {
      try {
        return await call(base, PolicyView, { method: 'PUT', body: { policy_yaml: value ?? '' } });
      } catch (err) {
        if (refused(err)) return undefined;
        throw err;
      }
    });
    if (saved) {
      setNotice(`Policy of ${slug} saved.`);
      current.reload();
      history.reload();
    }
  }

  async function onRemove() {
    setNotice(null);
    setIssues([]);
    const removed = await save.run(async () => {
      await call(base, z.unknown(), { method: 'DELETE' });
      return true;
    });
    if (removed) {
      setNotice(`Policy of ${slug} removed: every approval goes to a person.`);
      setText(STARTER);
      current.reload();
      history.reload();
    }
  }

  async function onDryRun() {
    setIssues([]);
    setDryRun(null);
    const count = Number(last);
    const result = await tryIt.run(async () => {
      try {
        return await call(`${base}/dry-run`, DryRun, {
          method: 'POST',
          body: { policy_yaml: value ?? '', last: Number.isInteger(count) && count >= 1 ? Math.min(count, 500) : 20 },
        });
      } catch (err) {
        if (refused(err)) return undefined;
        throw err;
      }
    });
    if (result) setDryRun(result);
  }

  if (current.error && !none) return <LoadProblem error={current.error} />;
  const issuesId = 'policy-yaml-issues';
  return (
    <section aria-labelledby="policy-title">
      <p>
        <Link to="/admin">← Admin</Link>
      </p>
      <h1 id="policy-title">
        Approval policy · {org} / {slug}
      </h1>
      <p className="hint" id="policy-yaml-hint">
        Rules that decide an approval of this project&apos;s jobs without a person, and the reminder schedule of its
        waits (docs/approval-policies.md, docs/reminders.md). Try the text on the last approvals before saving it.
      </p>
      {current.data ? (
        <p data-testid="policy-current">
          Current policy set by {personLabel(current.data.updated_by, people)}, <Time iso={current.data.updated_at} />.
        </p>
      ) : none ? (
        <p data-testid="policy-current">No policy: every approval of this project goes to a person.</p>
      ) : (
        <Loading what="the policy" />
      )}
      <div aria-live="polite">
        <ErrorNote error={save.error ?? tryIt.error} />
        {notice ? <p role="status">{notice}</p> : null}
      </div>
      {value !== null ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void onSave();
          }}
        >
          <label htmlFor="policy-yaml">Policy (YAML)</label>
          <textarea
            id="policy-yaml"
            className="policy-yaml"
            spellCheck={false}
            rows={16}
            value={value}
            onChange={(e) => setText(e.target.value)}
            {...invalidProps(issuesId, issues.length > 0 ? 'invalid' : null, 'policy-yaml-hint')}
          />
          {issues.length > 0 ? (
            <div id={issuesId} className="policy-issues" role="alert">
              <p className="field-error">The policy was refused:</p>
              <ul>
                {issues.map((issue) => (
                  <li key={issue}>{issue}</li>
                ))}
              </ul>
            </div>
          ) : null}
          <div className="actions">
            <button type="submit" disabled={save.busy}>
              Save policy
            </button>
            <label htmlFor="policy-last">Last approvals</label>
            <input
              id="policy-last"
              inputMode="numeric"
              size={4}
              value={last}
              onChange={(e) => setLast(e.target.value)}
            />
            <button type="button" className="secondary" disabled={tryIt.busy} onClick={() => void onDryRun()}>
              Dry run
            </button>
            {current.data ? (
              <button type="button" className="secondary" disabled={save.busy} onClick={() => void onRemove()}>
                Remove policy
              </button>
            ) : null}
          </div>
        </form>
      ) : null}
      {dryRun ? <DryRunResult result={dryRun} people={people} /> : null}
      <section aria-labelledby="policy-history-title">
        <h2 id="policy-history-title">History</h2>
        {history.error ? <ErrorNote error={history.error} /> : null}
        {history.data?.changes.length === 0 ? <p className="empty">No changes yet.</p> : null}
        {history.data && history.data.changes.length > 0 ? (
          <ScrollTable columns={['When', 'By', 'Change', 'Policy']}>
            {history.data.changes.map((c) => (
              <tr key={c.change_id} data-change={c.change_id}>
                <td>
                  <Time iso={c.changed_at} />
                </td>
                <td>{personLabel(c.changed_by, people)}</td>
                <td>{c.change === 'set' ? 'set' : 'removed'}</td>
                <td>
                  {c.policy_yaml === null ? (
                    '—'
                  ) : (
                    <details>
                      <summary>YAML</summary>
                      <pre>{c.policy_yaml}</pre>
                      <button
                        type="button"
                        className="small secondary"
                        onClick={() => {
                          setText(c.policy_yaml);
                          setIssues([]);
                          document.getElementById('policy-yaml')?.focus();
                        }}
                      >
                        Edit from this version
                      </button>
                    </details>
                  )}
                </td>
              </tr>
            ))}
          </ScrollTable>
        ) : null}
      </section>
    </section>
  );
}

type People = ReturnType<typeof usePeople>;

/** Deciders that are not people: a policy's rule and a wait's timeout. */
const NOT_PEOPLE = /^(policy:|timeout$)/;

function deciderLabel(by: string, people: People): string {
  return NOT_PEOPLE.test(by) ? by : personLabel(by, people);
}

function DryRunResult({ result, people }: { result: DryRun; people: People }) {
  return (
    <section aria-labelledby="dry-run-title" data-testid="dry-run">
      <h2 id="dry-run-title">Dry run</h2>
      <p role="status">
        Of the last {result.evaluated} approvals, this policy would approve {result.would_approve}, reject{' '}
        {result.would_reject} and leave {result.to_a_person} to a person.
      </p>
      {result.approvals.length === 0 ? <p className="empty">This project has no approvals yet.</p> : null}
      {result.approvals.length > 0 ? (
        <ScrollTable columns={['Requested', 'Action', 'Decided then', 'This policy would', 'Rule']}>
          {result.approvals.map((a) => (
            <DryRunRow key={a.approval_id} approval={a} people={people} />
          ))}
        </ScrollTable>
      ) : null}
    </section>
  );
}

function DryRunRow({ approval: a, people }: { approval: DryRunApproval; people: People }) {
  return (
    <tr data-approval={a.approval_id}>
      <td>
        <Time iso={a.created_at} />
      </td>
      <th scope="row" className="wrap-anywhere">
        {a.action}
      </th>
      <td>
        {a.status}
        {a.decided_by ? <span className="hint"> by {deciderLabel(a.decided_by, people)}</span> : null}
      </td>
      <td>
        {a.would ? (
          <span className={`badge status-${a.would.decision === 'approve' ? 'approved' : 'rejected'}`}>
            {a.would.decision}
          </span>
        ) : (
          'ask a person'
        )}
      </td>
      <td>{a.would ? <code>{a.would.rule_id}</code> : '—'}</td>
    </tr>
  );
}
