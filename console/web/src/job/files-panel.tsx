import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ErrorNote, Loading } from '../problem';
import { JobFiles } from '../schemas';
import { useResource } from '../use-resource';
import { fileUrl } from './files/file-kind';
import { FileViewer } from './files/file-viewer';
import './files/files.css';

/** The search parameter that names the open file: `/jobs/:id?file=<path>` is the file's own address. */
export const FILE_PARAM = 'file';

/**
 * The files the executor wrote (listed from the API, re-read as new `file_created` events arrive). Each has its own
 * address on the job page (`?file=`), a raw URL and a download; the open one is previewed by the viewer.
 */
export function FilesPanel({ jobId, paths }: { jobId: string; paths: string[] }) {
  const files = useResource(`/api/v1/jobs/${encodeURIComponent(jobId)}/files`, JobFiles);
  const [params] = useSearchParams();
  const open = params.get(FILE_PARAM);
  const reload = files.reload;
  useEffect(() => {
    if (paths.length > 0) reload();
  }, [paths.length, reload]);

  // Other parameters (the step drawer's `step`, `event`) stay as they are.
  const linkTo = (path: string | null) => {
    const next = new URLSearchParams(params);
    if (path === null) next.delete(FILE_PARAM);
    else next.set(FILE_PARAM, path);
    const query = next.toString();
    return query ? `?${query}` : '?';
  };

  const listed = files.data?.files ?? [];
  return (
    <section aria-labelledby="files-title">
      <h2 id="files-title">Files</h2>
      {files.loading && !files.data ? <Loading what="files" /> : null}
      {files.error ? <ErrorNote error={files.error} /> : null}
      {files.data && listed.length === 0 ? <p className="empty">No files written yet.</p> : null}
      <ul className="files">
        {listed.map((f) => (
          <li key={f.path} className="file-row">
            <Link
              to={linkTo(f.path)}
              replace={open !== null}
              preventScrollReset
              aria-current={open === f.path ? 'true' : undefined}
              className="file-name"
            >
              {f.path}
            </Link>
            <span className="hint">{formatBytes(f.size_bytes)}</span>
            <a className="file-action" href={fileUrl(jobId, f.path, true)} download>
              Download<span className="visually-hidden"> {f.path}</span>
            </a>
          </li>
        ))}
      </ul>
      {open ? (
        <FileViewer
          key={open}
          jobId={jobId}
          path={open}
          sha256={listed.find((f) => f.path === open)?.sha256 ?? null}
          listed={files.data ? listed.some((f) => f.path === open) : null}
          closeTo={linkTo(null)}
        />
      ) : null}
    </section>
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
