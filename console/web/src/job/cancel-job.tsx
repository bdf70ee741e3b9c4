import { useState } from 'react';
import { call } from '../api';
import { ErrorNote } from '../problem';
import { Cancelled } from '../schemas';
import { useAction } from '../use-action';
import { Dialog } from './dialog';

/**
 * Cancel, asked twice: the button (not the page's primary action) opens a confirm dialog, whose Escape and "Keep
 * running" leave the job alone.
 */
export function CancelJob({
  jobId,
  disabled,
  onCancelled,
}: {
  jobId: string;
  disabled: boolean;
  onCancelled: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const { busy, error, run } = useAction();

  async function confirm() {
    await run(async () => {
      await call(`/api/v1/jobs/${encodeURIComponent(jobId)}/cancel`, Cancelled, { method: 'POST', body: {} });
      setAsking(false);
      onCancelled();
    });
  }

  return (
    <>
      <button type="button" className="secondary danger" onClick={() => setAsking(true)} disabled={disabled || busy}>
        {busy ? 'Cancelling…' : 'Cancel job'}
      </button>
      {asking ? (
        <Dialog title="Cancel this job?" onClose={() => setAsking(false)} closeLabel="Keep running" className="confirm">
          <p>The level that is running stops and the job ends as cancelled. This cannot be undone.</p>
          <ErrorNote error={error} />
          <div className="dialog-actions">
            <button type="button" className="danger-solid" onClick={() => void confirm()} disabled={busy}>
              Yes, cancel the job
            </button>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}
