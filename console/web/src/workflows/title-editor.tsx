import { useEffect, useRef, useState, type FormEvent } from 'react';
import { call, seg } from '../api';
import { ErrorNote } from '../problem';
import { Workflow } from '../schemas';
import { useAction } from '../use-action';
import { FollowUpPolicyForm } from './follow-up-policy';

/** The API's bound on a title (db/workflow-list.ts MAX_TITLE_CHARS). */
export const MAX_TITLE_CHARS = 200;

/** Saves a title (null: back to the first prompt's line) and answers the workflow as the API now shows it. */
export function saveTitle(workflowId: string, title: string | null): Promise<Workflow> {
  return call(`/api/v1/workflows/${seg(workflowId)}`, Workflow, { method: 'PATCH', body: { title } });
}

/**
 * Renaming a workflow in a modal dialog (the browser's own: focus stays inside, Escape closes it). Says why a title
 * is refused before sending it, and shows the API's refusal when it still is.
 */
export function TitleDialog({
  workflow,
  onClose,
  onSaved,
}: {
  workflow: Pick<Workflow, 'workflow_id' | 'title' | 'title_set' | 'follow_up_policy'>;
  onClose: () => void;
  onSaved: (workflow: Workflow) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [title, setTitle] = useState(workflow.title);
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const field = `title-${workflow.workflow_id}`;

  // No close() on unmount: a removed dialog leaves the top layer by itself, and a close() there would queue a `close`
  // event that reaches the dialog after it was shown again (an effect run twice), closing it at once.
  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, []);

  async function save(next: string | null) {
    const saved = await run(() => saveTitle(workflow.workflow_id, next));
    if (saved) onSaved(saved);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = title.trim();
    if (!trimmed) return setProblem('A title cannot be blank. Use the prompt’s first line instead to clear it.');
    if (trimmed.length > MAX_TITLE_CHARS) return setProblem(`A title has at most ${MAX_TITLE_CHARS} characters.`);
    setProblem(null);
    void save(trimmed);
  }

  return (
    <dialog
      ref={dialog}
      className="title-dialog"
      aria-labelledby={`${field}-heading`}
      onClose={() => {
        if (!dialog.current?.open) onClose();
      }}
    >
      <form className="stack" onSubmit={submit} noValidate>
        <h2 id={`${field}-heading`}>Rename {workflow.workflow_id}</h2>
        <label htmlFor={field}>Title</label>
        <input
          id={field}
          value={title}
          maxLength={MAX_TITLE_CHARS + 50}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${field}-hint`}
          onChange={(e) => setTitle(e.target.value)}
        />
        <p id={`${field}-hint`} className={problem ? 'error' : 'hint'} role={problem ? 'alert' : undefined}>
          {problem ?? `One line, up to ${MAX_TITLE_CHARS} characters.`}
        </p>
        <ErrorNote error={error} />
        <div className="actions">
          <button type="submit" disabled={busy}>
            Save title
          </button>
          {workflow.title_set ? (
            <button type="button" className="secondary" disabled={busy} onClick={() => void save(null)}>
              Use the prompt’s first line
            </button>
          ) : null}
          <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
      <FollowUpPolicyForm workflow={workflow} onSaved={onSaved} />
    </dialog>
  );
}
