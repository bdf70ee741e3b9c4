import { useCallback, useEffect, useState } from 'react';
import { call, isAbort } from '../api';
import { HumanTaskList, QuestionList } from '../people-schemas';
import { ApprovalList, type SessionUser } from '../schemas';
import { needsYouItems, needsYouPaths, type NeedsYouItem } from './needs-you';

/**
 * How often the inbox and the nav count read the lists again, measured from the end of the previous read. No stream
 * spans a person's jobs (each job has its own), and following every running job's stream from every tab would cost
 * far more than three small reads every few seconds; an action taken in this tab refreshes at once (below).
 */
export const NEEDS_YOU_POLL_MS = 5_000;
const CHANGED = 'keel:needs-you-changed';

/** Tells every inbox view of this tab that something was answered, decided or done: they read again now. */
export function notifyNeedsYouChanged(): void {
  window.dispatchEvent(new Event(CHANGED));
}

export interface NeedsYou {
  items: NeedsYouItem[] | undefined;
  counts: { questions: number; approvals: number; tasks: number } | undefined;
  error: unknown;
  reload: () => void;
}

/** What waits for the signed-in person (optionally in one project), read now and every few seconds. */
export function useNeedsYou(user: Pick<SessionUser, 'id' | 'role'>, project: string | null): NeedsYou {
  const [state, setState] = useState<{
    key: string;
    items?: NeedsYouItem[];
    counts?: NeedsYou['counts'];
    error?: unknown;
  }>({ key: '' });
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  const { id, role } = user;
  const key = `${id}|${role}|${project ?? ''}`;

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let reading = false;
    let again = false;
    const { questions, approvals, tasks } = needsYouPaths({ id, role }, project);
    const read = async () => {
      timer = undefined;
      reading = true;
      again = false;
      try {
        const [q, a, t] = await Promise.all([
          call(questions, QuestionList, { signal: controller.signal }),
          call(approvals, ApprovalList, { signal: controller.signal }),
          call(tasks, HumanTaskList, { signal: controller.signal }),
        ]);
        setState({
          key,
          items: needsYouItems(q.questions, a.approvals, t.tasks),
          counts: { questions: q.questions.length, approvals: a.approvals.length, tasks: t.tasks.length },
        });
      } catch (error) {
        if (isAbort(error)) return;
        setState((s) => ({ ...s, key, error }));
      }
      reading = false;
      if (controller.signal.aborted) return;
      // A change announced while the read was under way may have come after the server answered: read once more.
      if (again) void read();
      else timer = setTimeout(() => void read(), NEEDS_YOU_POLL_MS);
    };
    const now = () => {
      if (reading) {
        again = true;
        return;
      }
      if (timer !== undefined) clearTimeout(timer);
      void read();
    };
    void read();
    window.addEventListener(CHANGED, now);
    return () => {
      controller.abort();
      if (timer !== undefined) clearTimeout(timer);
      window.removeEventListener(CHANGED, now);
    };
  }, [key, id, role, project, generation]);

  const current = state.key === key;
  return {
    items: current ? state.items : undefined,
    counts: current ? state.counts : undefined,
    error: current ? state.error : undefined,
    reload,
  };
}
