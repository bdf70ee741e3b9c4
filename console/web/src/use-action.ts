import { useCallback, useState } from 'react';

/**
 * A person's action on a page (a form sent, a button pressed): busy while it runs, its failure kept to show. `run`
 * clears the last failure, and answers undefined when the action failed.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(async <T>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await action();
    } catch (err) {
      setError(err);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run };
}
