import { useState, type FormEvent } from 'react';
import * as z from 'zod/mini';
import { call } from '../api';
import { ErrorNote } from '../problem';
import { useAction } from '../use-action';

/** What POST /v1/kb/file and /v1/kb/edit answer: the document written and whether its index changed. */
const KbWritten = z.looseObject({ path: z.string(), kh_id: z.string(), content_hash: z.string(), status: z.string() });

/** The levels a document may declare, lowest first (kb/sensitivity.ts); the API refuses one above the writer's. */
const LEVELS = ['public', 'partner', 'internal', 'secret'] as const;

/** A hub document's file: YAML frontmatter (JSON is YAML, so values need no quoting rules of their own) and the text. */
function hubFile(input: { title: string; sensitivity: string; tags: string[]; body: string }): string {
  const lines = [`title: ${JSON.stringify(input.title)}`, `sensitivity: ${input.sensitivity}`];
  lines.push(`tags: ${JSON.stringify(input.tags)}`);
  return `---\n${lines.join('\n')}\n---\n${input.body.endsWith('\n') ? input.body : `${input.body}\n`}`;
}

function slug(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'untitled'
  );
}

/**
 * Adds a document to the hub (POST /api/v1/kb/file, `base_hash: null` so an existing file is never overwritten) in
 * the writer's org space; `onAdded` gets its kh-id.
 */
export function AddDocument({ onAdded, onCancel }: { onAdded: (khId: string) => void; onCancel: () => void }) {
  const [title, setTitle] = useState('');
  const [path, setPath] = useState('');
  const [sensitivity, setSensitivity] = useState<string>('internal');
  const [tags, setTags] = useState('');
  const [body, setBody] = useState('');
  const action = useAction();
  const filePath = path.trim() || `notes/${slug(title)}.md`;
  const titleMissing = title.trim() === '';
  const pathInvalid = !/^[^/].*\.md$/.test(filePath) || filePath.split('/').some((s) => s === '' || s === '..');

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (titleMissing || pathInvalid) return;
    const written = await action.run(() =>
      call('/api/v1/kb/file', KbWritten, {
        method: 'POST',
        body: {
          path: filePath,
          base_hash: null,
          content: hubFile({
            title: title.trim(),
            sensitivity,
            tags: tags
              .split(',')
              .map((t) => t.trim())
              .filter(Boolean),
            body: body.trim() ? body : `# ${title.trim()}\n`,
          }),
        },
      }),
    );
    if (written) onAdded(written.kh_id);
  }

  return (
    <form className="stack kb-editor" onSubmit={(e) => void submit(e)} aria-labelledby="kb-add-title">
      <h2 id="kb-add-title">New document</h2>
      <label htmlFor="kb-add-doc-title">Title</label>
      <input
        id="kb-add-doc-title"
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        required
        aria-invalid={action.error !== null && titleMissing}
      />
      <label htmlFor="kb-add-path">Path in the hub</label>
      <input
        id="kb-add-path"
        value={path}
        placeholder={filePath}
        onChange={(e) => setPath(e.target.value)}
        aria-describedby="kb-add-path-hint"
        aria-invalid={pathInvalid}
      />
      <span id="kb-add-path-hint" className="hint">
        {pathInvalid ? 'A relative path ending in .md, without empty or .. parts.' : `Saved as ${filePath}.`}
      </span>
      <label htmlFor="kb-add-sensitivity">Sensitivity</label>
      <select id="kb-add-sensitivity" value={sensitivity} onChange={(e) => setSensitivity(e.target.value)}>
        {LEVELS.map((level) => (
          <option key={level} value={level}>
            {level}
          </option>
        ))}
      </select>
      <label htmlFor="kb-add-tags">Tags (comma-separated)</label>
      <input id="kb-add-tags" value={tags} onChange={(e) => setTags(e.target.value)} />
      <label htmlFor="kb-add-body">Text (Markdown)</label>
      <textarea id="kb-add-body" rows={10} value={body} onChange={(e) => setBody(e.target.value)} />
      <div aria-live="polite">
        <ErrorNote error={action.error} />
      </div>
      <div className="row-actions">
        <button type="submit" disabled={action.busy || titleMissing || pathInvalid}>
          Add document
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * Edits a document's text through POST /api/v1/kb/edit, against the hash it was read at: if someone changed it
 * meanwhile the API answers 409 and the editor says so, keeping the person's text.
 */
export function EditDocument({
  khId,
  markdown,
  contentHash,
  onSaved,
  onCancel,
}: {
  khId: string;
  markdown: string;
  contentHash: string;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const [body, setBody] = useState(markdown);
  const action = useAction();
  async function submit(event: FormEvent) {
    event.preventDefault();
    const written = await action.run(() =>
      call('/api/v1/kb/edit', KbWritten, { method: 'POST', body: { kh_id: khId, base_hash: contentHash, body } }),
    );
    if (written) onSaved();
  }
  return (
    <form className="stack kb-editor" onSubmit={(e) => void submit(e)}>
      <label htmlFor="kb-edit-body">Text (Markdown)</label>
      <textarea id="kb-edit-body" rows={14} value={body} onChange={(e) => setBody(e.target.value)} />
      <div aria-live="polite">
        <ErrorNote error={action.error} />
      </div>
      <div className="row-actions">
        <button type="submit" disabled={action.busy || body === markdown}>
          Save
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
