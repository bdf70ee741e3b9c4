import { useCallback, useMemo } from 'react';
import type { JobEvent } from './events';
import { peopleNamedBy, type NameOf } from './describe';
import { personLabel, usePeople } from '../people';

/**
 * How the job page names the people its events hold by user id (a human task's assignee): looked up once for the page
 * through /api/people, shared by the timeline and the step drawer.
 */
export function usePersonNames(events: readonly JobEvent[]): NameOf {
  const people = usePeople(useMemo(() => peopleNamedBy(events), [events]));
  return useCallback((id: string) => personLabel(id, people), [people]);
}
