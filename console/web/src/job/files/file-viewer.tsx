import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError, isAbort } from '../../api';
import { ErrorNote, Loading } from '../../problem';
import { fileKind, fileUrl, type FileKind } from './file-kind';

/** Larger files are offered as a download only: rendering megabytes of text would stall the page. */
const SHOW_LIMIT_BYTES = 2 * 1024 * 1024;

type Body = { kind: 'text'; text: string } | { kind: 'binary' } | { kind: 'large'; bytes: number };

interface Props {
  jobId: string;
  path: string;
  /** The listed content hash, or null when the file is not (or not yet) listed. */
  sha256: string | null;
  /** Whether the job lists this path; null while the list loads. */
  listed: boolean | null;
  /** Where Close goes: this page without `?file=`. */
  closeTo: string;
}

/**
 * One file, shown as what it is: Markdown rendered (markdown-it, loaded on demand), HTML in a sandboxed frame that runs
 * no script, images as images, anything else as text; each with its source, raw URL and download.
 */
export function FileViewer({ jobId, path, sha256, listed, closeTo }: Props) {
  const kind = fileKind(path);
  const [source, setSource] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const raw = fileUrl(jobId, path);

  // Keyed by path by its parent, so every file starts from an empty viewer; opened from a link or its own URL, the
  // viewer is where the reader's attention goes.
  useEffect(() => {
    heading.current?.focus();
    heading.current?.scrollIntoView({ block: 'nearest' });
  }, []);

  return (
    <div className="viewer" role="region" aria-labelledby="viewer-title">
      <div className="viewer-head">
        <h3 id="viewer-title" ref={heading} tabIndex={-1}>
          {path}
        </h3>
        <div className="viewer-actions">
          {kind === 'markdown' || kind === 'html' ? (
            <button
              type="button"
              className="small secondary"
              aria-pressed={source}
              onClick={() => setSource((s) => !s)}
            >
              Source
            </button>
          ) : null}
          <a href={raw} target="_blank" rel="noopener">
            Raw<span className="visually-hidden"> {path} (opens in a new tab)</span>
          </a>
          <a href={fileUrl(jobId, path, true)} download>
            Download<span className="visually-hidden"> {path}</span>
          </a>
          <Link to={closeTo} preventScrollReset replace>
            Close<span className="visually-hidden"> {path}</span>
          </Link>
        </div>
      </div>
      {sha256 ? (
        <p className="hint viewer-version">
          Latest version, sha256 <code>{sha256.slice(0, 12)}</code>
        </p>
      ) : null}
      {listed === false ? (
        <p className="error" role="alert">
          This job has no file <code>{path}</code>.
        </p>
      ) : kind === 'image' ? (
        <ImagePreview url={raw} path={path} />
      ) : (
        <Fetched url={raw} path={path} kind={kind} source={source} />
      )}
    </div>
  );
}

function ImagePreview({ url, path }: { url: string; path: string }) {
  const [broken, setBroken] = useState(false);
  if (broken) return <p className="error">This image could not be shown; download it instead.</p>;
  return (
    <div className="file-image">
      <img src={url} alt={`Image file ${path}`} onError={() => setBroken(true)} />
    </div>
  );
}

function Fetched({ url, path, kind, source }: { url: string; path: string; kind: FileKind; source: boolean }) {
  const [body, setBody] = useState<Body | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const controller = new AbortController();
    readFile(url, controller.signal).then(setBody, (err: unknown) => {
      if (!isAbort(err)) setError(err);
    });
    return () => controller.abort();
  }, [url]);

  if (error) return <ErrorNote error={error} />;
  if (!body) return <Loading what={path} />;
  if (body.kind === 'binary') return <p className="hint viewer-note">A binary file: download it to open it.</p>;
  if (body.kind === 'large') {
    return (
      <p className="hint viewer-note">
        {Math.round(body.bytes / 1024)} KB is too large to show here: download it or open it raw.
      </p>
    );
  }
  if (source || kind === 'text') return <pre className="file-text">{body.text}</pre>;
  if (kind === 'markdown') return <MarkdownPreview text={body.text} path={path} />;
  return (
    // No `allow-scripts` and no `allow-same-origin`: the page renders, runs nothing, and cannot reach the console.
    <iframe className="html-preview" sandbox="" srcDoc={body.text} title={`Preview of ${path}`} />
  );
}

async function readFile(url: string, signal: AbortSignal): Promise<Body> {
  const res = await fetch(url, { credentials: 'same-origin', signal });
  if (!res.ok) {
    const text = await res.text();
    let parsed: { error?: { code?: string; message?: string } } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      // Not the error envelope: the status says enough.
    }
    throw new ApiError(
      res.status,
      parsed.error?.code ?? `http_${res.status}`,
      parsed.error?.message ?? `The console answered ${res.status}`,
    );
  }
  const length = Number(res.headers.get('content-length'));
  if (Number.isFinite(length) && length > SHOW_LIMIT_BYTES) {
    await res.body?.cancel();
    return { kind: 'large', bytes: length };
  }
  if (!(res.headers.get('content-type') ?? '').startsWith('text/')) {
    await res.body?.cancel();
    return { kind: 'binary' };
  }
  return { kind: 'text', text: await res.text() };
}

function MarkdownPreview({ text, path }: { text: string; path: string }) {
  const [html, setHtml] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    // A chunk of its own: only a page that shows a Markdown file downloads the renderer.
    import('./markdown').then(
      ({ renderMarkdown }) => {
        if (live) setHtml(renderMarkdown(text));
      },
      (err: unknown) => {
        if (live) setError(err);
      },
    );
    return () => {
      live = false;
    };
  }, [text]);
  if (error) return <ErrorNote error={error} />;
  if (html === null) return <Loading what={`${path} preview`} />;
  // markdown-it escapes raw HTML (html: false) and refuses script URLs: the markup is its own, never the file's.
  return <div className="markdown-body" dangerouslySetInnerHTML={{ __html: html }} />;
}
