import { LIVE_PART_MAX_CHARS, fileBeingWritten, liveStatus, type LivePart } from './live-output';
import { useLevelLive, type LiveStore } from './live-store';
import './live-output.css';

const KB = Math.round(LIVE_PART_MAX_CHARS / 1024);

/**
 * A running level run's model output as it streams: its text, its reasoning (collapsed), the file a `write_file` call
 * is writing. Only the polite status sentence is announced; the streaming text itself is no live region, so a screen
 * reader is not read every token. Gone when the level run ends: its durable result shows instead.
 */
export function LiveOutputView({
  store,
  levelId,
  role,
  heading = false,
}: {
  store: LiveStore | undefined;
  levelId: string;
  role: string;
  /** Titled as a section of its own (the step drawer, among its other sections). */
  heading?: boolean;
}) {
  const live = useLevelLive(store, levelId);
  if (!live) return null;
  const { call } = live;
  const tools = [...call.tools.entries()].sort(([a], [b]) => a - b);
  return (
    <div className="live-output" data-testid="live-output" data-level={levelId} data-call={call.callId}>
      {heading ? <h3 className="live-title">Live output</h3> : null}
      <p role="status" className="visually-hidden">
        {liveStatus(role, call)}
      </p>
      <p className="live-head">
        <span className="live-dot" aria-hidden="true" /> {heading ? 'Streaming' : 'Live output'}
        {call.model ? ` from ${call.model}` : ''}
        {call.ended ? ' · answered, result follows' : ''}
      </p>
      {call.discarded ? (
        <p className="live-note" data-testid="live-discarded">
          An attempt failed over to another model; its partial output was dropped.
        </p>
      ) : null}
      {call.reasoning ? (
        <details className="live-reasoning">
          <summary>Reasoning</summary>
          <LiveText part={call.reasoning} />
        </details>
      ) : null}
      {call.text ? <LiveText part={call.text} testId="live-text" /> : null}
      {tools.map(([index, part]) =>
        part.toolName === 'write_file' ? (
          <FileView key={index} part={part} />
        ) : (
          <div key={index} className="live-tool">
            <p className="live-caption">
              Calling <code>{part.toolName ?? 'a tool'}</code>
            </p>
            <LiveText part={part} />
          </div>
        ),
      )}
    </div>
  );
}

function FileView({ part }: { part: LivePart }) {
  const file = fileBeingWritten(part);
  return (
    <div className="live-file" data-testid="live-file">
      <p className="live-caption wrap-anywhere">
        Writing <code data-testid="live-file-path">{file.path ?? '…'}</code>
      </p>
      {file.clipped ? <p className="live-note">Showing the newest {KB} KB of the file.</p> : null}
      <pre className="live-pre" data-testid="live-file-content">
        {file.content}
      </pre>
    </div>
  );
}

function LiveText({ part, testId }: { part: LivePart; testId?: string }) {
  return (
    <>
      {part.start > 0 ? <p className="live-note">Showing the newest {KB} KB.</p> : null}
      <pre className="live-pre" data-testid={testId}>
        {part.text}
      </pre>
    </>
  );
}
