import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../api';
import { ErrorNote, Loading } from '../problem';
import { formatDuration, formatUsd } from '../time';
import { Time } from '../time-tag';
import { useResource } from '../use-resource';
import type { JobView, LevelRun } from './derive';
import { describeEvent, type NameOf } from './describe';
import { Dialog } from './dialog';
import type { JobEvent } from './events';
import { LiveOutputView } from './live-output-view';
import type { LiveStore } from './live-store';
import { runAttribution } from './run-attribution';
import { StepTranscript } from './step-schemas';
import './step-drawer.css';
import { ForkFromHere } from '../fork/fork-form';

/** The URL search parameters the drawer opens from (docs/console.md, "The job page"): other pages link to these. */
export const STEP_PARAM = 'step';
export const EVENT_PARAM = 'event';

/** `?step=<level_id>` for a level run, `?event=<sequence>` for one timeline row: the search part of a deep link. */
export function stepSearch(levelId: string): string {
  return `?${STEP_PARAM}=${encodeURIComponent(levelId)}`;
}
export function eventSearch(sequence: number): string {
  return `?${EVENT_PARAM}=${sequence}`;
}

/**
 * The step drawer: a level run (what it was sent, its tool calls, who answered, tokens, cost, time, why it ran again)
 * or one event in full, opened by the URL alone, so a link or a reload shows the same thing. Closing it (Escape, the
 * Close button) removes the parameter.
 */
export function StepDrawer({
  jobId,
  events,
  view,
  loaded,
  live,
  nameOf,
}: {
  jobId: string;
  events: JobEvent[];
  view: JobView;
  loaded: boolean;
  /** How rows name a person a payload holds by user id (the page looks them up once). */
  nameOf?: NameOf;
  /** The job's live model output: a running level run's shows in its drawer as it streams. */
  live?: LiveStore;
}) {
  const [params, setParams] = useSearchParams();
  const step = params.get(STEP_PARAM);
  const sequence = params.get(EVENT_PARAM);
  if (!step && !sequence) return null;
  const close = () =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.delete(STEP_PARAM);
      next.delete(EVENT_PARAM);
      return next;
    });
  const run = step ? (view.runs.find((r) => r.levelId === step) ?? null) : null;
  const event = !step && sequence ? (events.find((e) => e.sequence === Number(sequence)) ?? null) : null;
  const title = step
    ? run
      ? `${run.role}${run.label ? ` · ${run.label}` : ''}`
      : 'Level run'
    : event
      ? `#${event.sequence} · ${describeEvent(event, nameOf).title}`
      : `Event #${sequence}`;
  return (
    <Dialog
      key={`${step ?? ''}|${sequence ?? ''}`}
      title={title}
      onClose={close}
      className="step-drawer"
      returnFocus={() => document.getElementById('levels-title')}
    >
      {step ? (
        run ? (
          <RunDetail jobId={jobId} run={run} events={events} live={live} nameOf={nameOf} />
        ) : loaded ? (
          <p className="empty">This job&apos;s events so far name no level run {step}.</p>
        ) : (
          <Loading what="the job's events" />
        )
      ) : event ? (
        <EventDetail
          event={event}
          levelId={view.levelOfEvent.get(event.sequence) ?? null}
          run={view.runs}
          nameOf={nameOf}
        />
      ) : loaded ? (
        <p className="empty">This job has no event #{sequence} so far.</p>
      ) : (
        <Loading what="the job's events" />
      )}
      <p className="deep-link">
        <a href={typeof window === 'undefined' ? '' : window.location.href}>Link to this {step ? 'step' : 'event'}</a>
      </p>
    </Dialog>
  );
}

function RunDetail({
  jobId,
  run,
  events,
  live,
  nameOf,
}: {
  jobId: string;
  run: LevelRun;
  events: JobEvent[];
  live?: LiveStore;
  nameOf?: NameOf;
}) {
  const own = events.filter((e) => run.sequences.includes(e.sequence));
  const callsModel =
    (run.kind === 'level' || run.kind === 'review' || run.kind === 'verification') && !run.deterministic;
  const running = run.state === 'running' || run.state === 'routed';
  return (
    <div className="run-detail">
      <dl className="facts">
        <dt>Level run</dt>
        <dd>
          <code>{run.levelId}</code>
        </dd>
        <dt>State</dt>
        <dd>
          <span className={`badge run-state-${run.state}`}>{run.state}</span>
          {run.verdict ? ` · verdict ${run.verdict}` : ''}
          {run.scenario ? ` · scenario ${run.scenario}` : ''}
        </dd>
        <dt>Model</dt>
        <dd>
          {runAttribution(run) || '—'}
          {run.intended?.tier ? ` (tier ${run.intended.tier})` : ''}
          {run.hops.map((hop, i) => (
            <span key={i} className="hop">
              {' '}
              · fell back from {hop.fromModel || 'the asked-for model'} to {hop.toProvider}/{hop.toModel} ({hop.reason})
            </span>
          ))}
        </dd>
        <dt>Attempt</dt>
        <dd>
          {run.label || 'first run'}
          {run.kind !== 'step' ? ` (run ${run.attempt} of ${run.role} in this job)` : ''}
          {run.retryReason ? <span className="why"> · {run.retryReason}</span> : null}
        </dd>
        <dt>Time</dt>
        <dd>
          <Time iso={run.startedAt} short /> → <Time iso={run.finishedAt} short /> · {formatDuration(run.durationMs)}
        </dd>
        <dt>Cost</dt>
        <dd>{formatUsd(run.costUsd)}</dd>
        <dt>Tokens</dt>
        <dd data-testid="step-tokens">
          {run.tokens
            ? `${run.tokens.prompt} prompt · ${run.tokens.completion} completion · ${run.tokens.reasoning} reasoning · cached not reported`
            : run.finishedAt
              ? 'none reported'
              : 'reported when the run finishes'}
        </dd>
        {run.deltas.length > 0 || (run.gate?.deltas.length ?? 0) > 0 ? (
          <>
            <dt>Asked to change</dt>
            <dd>
              <ul className="deltas">
                {[...new Set([...run.deltas, ...(run.gate?.deltas ?? [])])].map((d) => (
                  <li key={d}>{d}</li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
        {run.gate ? (
          <>
            <dt>Gate</dt>
            <dd>
              {run.gate.decision}
              {run.gate.to ? ` → ${run.gate.to}` : ''}
            </dd>
          </>
        ) : null}
      </dl>
      {/* While the run runs, its model output as it streams; when it ends, its durable transcript (read again then,
          so it holds the whole result) replaces it. */}
      {callsModel && running ? <LiveOutputView store={live} levelId={run.levelId} role={run.role} heading /> : null}
      {callsModel ? <Transcript key={running ? 'running' : 'ended'} jobId={jobId} run={run} /> : null}
      {!callsModel && run.output ? (
        <section aria-label="Output">
          <h3>Output</h3>
          <pre className="wrap" tabIndex={0}>
            {run.output}
          </pre>
        </section>
      ) : null}
      {run.finishedAt && !running && run.kind !== 'step' ? <ForkFromHere jobId={jobId} levelId={run.levelId} /> : null}
      <section aria-label="Events of this run">
        <h3>Events of this run</h3>
        <ol className="run-events">
          {own.map((e) => {
            const row = describeEvent(e, nameOf);
            return (
              <li key={e.sequence}>
                <Link to={eventSearch(e.sequence)}>
                  #{e.sequence} {row.title}
                </Link>
                {row.detail ? <span className="hint"> {row.detail}</span> : null}
              </li>
            );
          })}
        </ol>
      </section>
    </div>
  );
}

/** The messages as sent and each model call, from the run's history; the events' previews when it is not kept. */
function Transcript({ jobId, run }: { jobId: string; run: LevelRun }) {
  const suffix = run.levelId.split('/').pop() ?? '';
  const transcript = useResource(
    `/api/v1/jobs/${encodeURIComponent(jobId)}/steps/${encodeURIComponent(run.role)}/${encodeURIComponent(suffix)}`,
    StepTranscript,
  );
  if (transcript.loading && !transcript.data) return <Loading what="the prompt and tool calls" />;
  if (transcript.error) {
    const gone = transcript.error instanceof ApiError && transcript.error.status === 404;
    return (
      <>
        {gone ? (
          <p className="hint">Temporal no longer keeps this run&apos;s history; the events&apos; previews follow.</p>
        ) : (
          <ErrorNote error={transcript.error} />
        )}
        <Previews run={run} />
      </>
    );
  }
  const data = transcript.data;
  if (!data) return null;
  const results = new Map(data.messages.filter((m) => m.tool_call_id).map((m) => [m.tool_call_id!, m.content ?? '']));
  return (
    <>
      <section aria-label="Model calls">
        <h3>Model calls</h3>
        <ul className="calls">
          {data.calls.map((c) => (
            <li key={c.round}>
              Round {c.round}:{' '}
              {c.provider ? `answered by ${c.provider}/${c.model ?? ''}` : (c.failure ?? 'waiting for the model')}
              {c.usage
                ? ` · ${c.usage.prompt_tokens} prompt, ${c.usage.completion_tokens} completion, ${c.usage.reasoning_tokens} reasoning tokens`
                : ''}
              {c.cost_usd !== null ? ` · ${formatUsd(c.cost_usd)}` : ''}
              {c.attempt > 1
                ? ` · attempt ${c.attempt} of the call, retried because: ${c.retried_because ?? 'no reason recorded'}`
                : ''}
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Prompt as sent">
        <h3>Prompt as sent</h3>
        {data.messages
          .filter((m) => m.role !== 'tool')
          .map((m, i) => (
            <div key={i} className={`message message-${m.role}`}>
              <h4>{m.role}</h4>
              {m.content ? (
                <pre className="wrap" tabIndex={0}>
                  {m.content}
                </pre>
              ) : null}
              {m.tool_calls.length > 0 ? (
                <ul className="tool-calls" aria-label="Tool calls">
                  {m.tool_calls.map((call) => (
                    <li key={call.id}>
                      <strong>{call.name}</strong> <span className="hint">{call.id}</span>
                      <div className="tool-part">Arguments</div>
                      <pre className="wrap" tabIndex={0}>
                        {pretty(call.arguments)}
                      </pre>
                      <div className="tool-part">Result</div>
                      <pre className="wrap" tabIndex={0}>
                        {results.get(call.id) ?? 'no result yet'}
                      </pre>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ))}
      </section>
      <section aria-label="Output">
        <h3>Output</h3>
        {data.output !== null ? (
          <pre className="wrap" tabIndex={0}>
            {data.output}
          </pre>
        ) : (
          <p className="empty">No answer yet.</p>
        )}
      </section>
    </>
  );
}

function Previews({ run }: { run: LevelRun }) {
  return (
    <section aria-label="Previews">
      {run.prompts.map((p) => (
        <div key={p.sequence}>
          <h4>Prompt, round {p.round} (first 280 characters)</h4>
          <pre className="wrap" tabIndex={0}>
            {p.preview}
          </pre>
        </div>
      ))}
      {run.tools.length > 0 ? (
        <ul className="tool-calls" aria-label="Tool calls">
          {run.tools.map((t) => (
            <li key={t.callId}>
              <strong>{t.name}</strong> → {t.result ?? 'no result yet'}
            </li>
          ))}
        </ul>
      ) : null}
      {run.output ? (
        <>
          <h4>Output (first 280 characters)</h4>
          <pre className="wrap" tabIndex={0}>
            {run.output}
          </pre>
        </>
      ) : null}
    </section>
  );
}

/** Tool arguments are JSON text the model wrote: shown indented when they parse, as written when not. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function EventDetail({
  event,
  levelId,
  run,
  nameOf,
}: {
  event: JobEvent;
  levelId: string | null;
  run: LevelRun[];
  nameOf?: NameOf;
}) {
  const row = describeEvent(event, nameOf);
  const owner = levelId ? run.find((r) => r.levelId === levelId) : undefined;
  return (
    <div className="event-detail">
      <p className="event-sentence">{row.detail || row.title}</p>
      <dl className="facts">
        <dt>Kind</dt>
        <dd>
          <code>{event.kind}</code>
          {row.known ? '' : ' (a kind this console does not know)'}
        </dd>
        <dt>When</dt>
        <dd>
          <Time iso={event.occurred_at} />
        </dd>
        <dt>Role</dt>
        <dd>{event.agent_role}</dd>
        {owner ? (
          <>
            <dt>Level run</dt>
            <dd>
              <Link to={stepSearch(owner.levelId)}>
                {owner.role}
                {owner.label ? ` · ${owner.label}` : ''}
              </Link>
            </dd>
          </>
        ) : null}
        {Object.entries(event.payload).map(([key, value]) => (
          <Field key={key} name={key} value={value} />
        ))}
      </dl>
      <details open={!row.known}>
        <summary>Payload as sent</summary>
        <pre className="wrap" tabIndex={0}>
          {JSON.stringify(event.payload, null, 2)}
        </pre>
      </details>
    </div>
  );
}

function Field({ name, value }: { name: string; value: unknown }) {
  const shown =
    value === null || value === undefined
      ? '—'
      : typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)
          ? value.join(', ') || '(none)'
          : null;
  return (
    <>
      <dt>{name.replace(/_/g, ' ')}</dt>
      <dd>
        {shown ?? (
          <pre className="wrap" tabIndex={0}>
            {JSON.stringify(value, null, 2)}
          </pre>
        )}
      </dd>
    </>
  );
}
