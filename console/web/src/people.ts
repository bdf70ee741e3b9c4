import { PeopleList, type Person } from './people-schemas';
import { useResource } from './use-resource';

/** At most this many ids per lookup (the identity service's own limit). */
const MAX_IDS = 50;

/** The prefix of a team-chat person's user id (chat/inbound.ts, chatPrincipal): they have no identity account. */
const CHAT_USER = 'chatapp:';
/** The prefix of whoever used an answer link (docs/answer-links.md): a person outside Keel, named by the link's id. */
const LINK_USER = 'link:';

/**
 * How a person who answered, decided or completed something is named: their name, else their email. A team-chat
 * person (answering in a thread or with a button) is named by their chat user id, someone who used an answer link by the
 * link's id. Any other id the identity service
 * does not know is an API token's user (a script, `dev` under `npm start`) and is shown as such.
 */
export function personLabel(id: string, people: ReadonlyMap<string, Person> | undefined): string {
  if (id.startsWith(CHAT_USER)) return `chat user ${id.slice(CHAT_USER.length)}`;
  if (id.startsWith(LINK_USER)) return `answer link ${id.slice(LINK_USER.length)}`;
  const person = people?.get(id);
  if (person) return person.name?.trim() || person.email;
  return people ? `API token ${id}` : id;
}

/** The identity service's people among `ids` (name and email), looked up once per distinct set through the console. */
export function usePeople(ids: readonly (string | null | undefined)[]): ReadonlyMap<string, Person> | undefined {
  const known = ids.filter(
    (id): id is string => typeof id === 'string' && id !== '' && !id.startsWith(CHAT_USER) && !id.startsWith(LINK_USER),
  );
  const wanted = [...new Set(known)].sort().slice(0, MAX_IDS);
  const path = wanted.length > 0 ? `/api/people?${wanted.map((id) => `id=${encodeURIComponent(id)}`).join('&')}` : null;
  const people = useResource(path, PeopleList);
  if (path === null) return new Map();
  if (!people.data) return undefined;
  return new Map(people.data.people.map((p) => [p.id, p]));
}
