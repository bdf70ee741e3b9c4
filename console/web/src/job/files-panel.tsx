import { useEffect, useRef, useState } from 'react';
import { callText } from '../api';
import { ErrorNote, Loading } from '../problem';
import { JobFiles } from '../schemas';
import { useResource } from '../use-resource';

/** The files the executor wrote (listed from the API, re-read as new `file_created` events arrive), with a viewer. */
export function FilesPanel({ jobId, paths }: { jobId: string; paths: string[] }) {
  const files = useResource(`/api/v1/jobs/${encodeURIComponent(jobId)}/files`, JobFiles);
  const [open, setOpen] = useState<string | null>(null);
  const reload = files.reload;
  useEffect(() => {
    if (paths.length > 0) reload();
  }, [paths.length, reload]);

  const listed = files.data?.files ?? [];
  return (
    <section aria-labelledby="files-title">
      <h2 id="files-title">Files</h2>
      {files.loading && !files.data ? <Loading what="files" /> : null}
      {files.error ? <ErrorNote error={files.error} /> : null}
      {files.data && listed.length === 0 ? <p className="empty">No files written yet.</p> : null}
      <ul className="files">
        {listed.map((f) => (
          <li key={f.path}>
            <button type="button" className="link" onClick={() => setOpen(f.path)} aria-expanded={open === f.path}>
              {f.path}
            </button>{' '}
            <span className="hint">{f.size_bytes} bytes</span>
          </li>
        ))}
      </ul>
      {open ? <FileViewer key={open} jobId={jobId} path={open} onClose={() => setOpen(null)} /> : null}
    </section>
  );
}

function FileViewer({ jobId, path, onClose }: { jobId: string; path: string; onClose: () => void }) {
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Keyed by path by its parent, so every file starts from an empty viewer.
  useEffect(() => {
    const controller = new AbortController();
    const encoded = path.split('/').map(encodeURIComponent).join('/');
    callText(`/api/v1/jobs/${encodeURIComponent(jobId)}/files/${encoded}`, controller.signal).then(
      setText,
      (err: unknown) => {
        if (!controller.signal.aborted) setError(err);
      },
    );
    heading.current?.focus();
    return () => controller.abort();
  }, [jobId, path]);
  return (
    <div className="viewer" role="region" aria-labelledby="viewer-title">
      <div className="viewer-head">
        <h3 id="viewer-title" ref={heading} tabIndex={-1}>
          {path}
        </h3>
        <button type="button" onClick={onClose}>
          Close<span className="visually-hidden"> {path}</span>
        </button>
      </div>
      {error ? <ErrorNote error={error} /> : null}
      {text === null && !error ? <Loading what={path} /> : null}
      {text !== null ? <pre className="file-text">{text}</pre> : null}
    </div>
  );
}
