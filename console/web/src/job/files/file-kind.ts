/** How the viewer shows a file, from its extension; anything it does not recognise is shown as text. */
export type FileKind = 'markdown' | 'html' | 'image' | 'text';

const KINDS: Record<string, FileKind> = {
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  webp: 'image',
  avif: 'image',
};

export function fileKind(path: string): FileKind {
  const dot = path.lastIndexOf('.');
  const ext = dot > path.lastIndexOf('/') ? path.slice(dot + 1).toLowerCase() : '';
  return KINDS[ext] ?? 'text';
}

/** The file's raw URL through the console (`?download=true` for an attachment); each path segment is encoded. */
export function fileUrl(jobId: string, path: string, download = false): string {
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  return `/api/v1/jobs/${encodeURIComponent(jobId)}/files/${encoded}${download ? '?download=true' : ''}`;
}
