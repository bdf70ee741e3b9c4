import { Link, useParams } from 'react-router';
import { LoadProblem, Loading } from '../problem';
import { formatDuration, formatUsd } from '../time';
import { useResource } from '../use-resource';
import { Comparison, type FileChange, type LevelChange } from './fork-schemas';
import './compare.css';

const RELATIONS: Record<string, string> = {
  b_forked_from_a: 'the second is a fork of the first',
  a_forked_from_b: 'the first is a fork of the second',
  same_source: 'both are forks of one job',
  same_job: 'the same job',
  unrelated: 'two unrelated jobs',
};

const signed = (value: number, format: (v: number) => string) =>
  value === 0 ? 'same' : `${value > 0 ? '+' : '−'}${format(Math.abs(value))}`;

/**
 * Two jobs side by side (`GET /v1/jobs/:a/compare/:b`, docs/fork-and-compare.md): the files that differ with their
 * diffs, and each level run's cost and duration, carried-over runs marked. Usually a job and its fork.
 */
export function ComparePage() {
  const { id = '', other = '' } = useParams();
  const comparison = useResource(
    `/api/v1/jobs/${encodeURIComponent(id)}/compare/${encodeURIComponent(other)}`,
    Comparison,
  );
  if (comparison.error) return <LoadProblem error={comparison.error} />;
  if (!comparison.data) return <Loading what="the comparison" />;
  const c = comparison.data;
  return (
    <section className="compare">
      <div className="page-head">
        <h1>Compare jobs</h1>
      </div>
      <dl className="facts">
        <dt>Before</dt>
        <dd>
          <Link to={`/jobs/${encodeURIComponent(c.a.job_id)}`}>{c.a.job_id}</Link> ({c.a.status})
        </dd>
        <dt>After</dt>
        <dd>
          <Link to={`/jobs/${encodeURIComponent(c.b.job_id)}`}>{c.b.job_id}</Link> ({c.b.status})
        </dd>
        <dt>Relation</dt>
        <dd>{RELATIONS[c.relation] ?? c.relation}</dd>
        <dt>Cost</dt>
        <dd data-testid="compare-cost">
          {formatUsd(c.a.levels_cost_usd)} → {formatUsd(c.b.levels_cost_usd)} ({signed(c.cost_diff_usd, formatUsd)})
          {c.b.carried_level_ids.length > 0
            ? ` · the second billed ${formatUsd(c.b.billed_cost_usd)}, the rest carried over`
            : ''}
        </dd>
        <dt>Duration</dt>
        <dd>
          {formatDuration(c.a.levels_duration_ms)} → {formatDuration(c.b.levels_duration_ms)} (
          {signed(c.duration_diff_ms, formatDuration)})
        </dd>
      </dl>

      <section aria-labelledby="compare-files">
        <h2 id="compare-files">Files</h2>
        {c.identical_workspaces ? (
          <p>The two workspaces are identical.</p>
        ) : (
          <>
            <p className="hint">
              {c.files.length} file{c.files.length === 1 ? '' : 's'} differ, {c.unchanged_files} unchanged.
            </p>
            <ul className="compare-files">
              {c.files.map((file) => (
                <FileRow key={file.path} file={file} />
              ))}
            </ul>
          </>
        )}
      </section>

      <section aria-labelledby="compare-levels">
        <h2 id="compare-levels">Level runs</h2>
        <table className="compare-levels">
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
              <th scope="col">Cost</th>
              <th scope="col">Duration</th>
            </tr>
          </thead>
          <tbody>
            {c.levels.map((level) => (
              <LevelRow key={`${level.role}/${level.attempt}`} level={level} />
            ))}
          </tbody>
        </table>
      </section>
    </section>
  );
}

function FileRow({ file }: { file: FileChange }) {
  const size = (side: FileChange['a']) => (side ? `${side.size_bytes.toLocaleString()} bytes` : '—');
  return (
    <li>
      <details open={file.diff !== undefined && file.diff.length < 20_000}>
        <summary>
          <span className={`badge change-${file.change}`}>{file.change}</span> <code>{file.path}</code>{' '}
          <span className="hint">
            {size(file.a)} → {size(file.b)}
          </span>
        </summary>
        {file.diff ? (
          <pre className="diff" tabIndex={0} aria-label={`Changes to ${file.path}`}>
            {file.diff.split('\n').map((line, i) => (
              <span key={i} className={diffClass(line)}>
                {line}
                {'\n'}
              </span>
            ))}
          </pre>
        ) : (
          <p className="hint">
            {file.diff_omitted === 'binary'
              ? 'Binary file: compared by content hash and size.'
              : file.diff_omitted === 'too_large'
                ? 'Too large to show a diff: compared by content hash and size.'
                : file.change === 'changed'
                  ? 'No text diff.'
                  : `Only in the ${file.change === 'added' ? 'second' : 'first'} job.`}
          </p>
        )}
      </details>
    </li>
  );
}

function diffClass(line: string): string | undefined {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('===')) return 'diff-file';
  if (line.startsWith('@@')) return 'diff-hunk';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-del';
  return undefined;
}

function LevelRow({ level }: { level: LevelChange }) {
  const side = (s: LevelChange['a']) =>
    s ? (
      <>
        {formatUsd(s.cost_usd)} · {formatDuration(s.duration_ms)}
        {s.verdict ? ` · ${s.verdict}` : ''}
        {s.carried_over ? (
          <>
            {' '}
            <span className="badge carried">carried over</span>
          </>
        ) : null}
      </>
    ) : (
      '—'
    );
  return (
    <tr>
      <th scope="row">
        {level.role} #{level.attempt}
      </th>
      <td>{side(level.a)}</td>
      <td>{side(level.b)}</td>
      <td>{level.cost_diff_usd === null ? '—' : signed(level.cost_diff_usd, formatUsd)}</td>
      <td>{level.duration_diff_ms === null ? '—' : signed(level.duration_diff_ms, formatDuration)}</td>
    </tr>
  );
}
