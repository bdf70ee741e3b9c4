import { decodeHTML } from 'entities';

/** What the text transforms look up; answers come from the run's users.info cache, resolved before rendering. */
export interface NameLookup {
  user(id: string): string | undefined;
}

const USER_MENTION = /<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/g;
const SPECIAL_MENTION = /<!(here|channel|everyone)(?:\|[^>]*)?>|<!subteam\^[A-Z0-9]+\|([^>]+)>/g;
const CHANNEL_MENTION = /<#([CGD][A-Z0-9]+)(?:\|([^>]*))?>/g;
const LINK = /<((?:https?|mailto|ftp|tel):[^|>\s]+)(?:\|([^>]*))?>/g;

/** The user ids a message's text mentions, so the run can look them up before rendering. */
export function mentionedUsers(text: string): string[] {
  return [...text.matchAll(USER_MENTION)].map((match) => match[1]!);
}

/**
 * Slack's mrkdwn escapes to readable markdown, in the spec's order: user mentions (`@<display-name>`, unknown users
 * `@<user id>`; `<!here>`-style broadcasts become `@here`), channel mentions (`#name`, else `#<channel id>`), links
 * (`[label](url)` or the bare URL), then HTML entities. Entities go last so an escaped `&lt;@U1&gt;` stays literal
 * text instead of turning into a mention.
 */
export function transformText(text: string, names: NameLookup): string {
  return decodeHTML(
    text
      .replace(USER_MENTION, (_match, id: string) => `@${names.user(id) ?? id}`)
      .replace(SPECIAL_MENTION, (_match, broadcast: string | undefined, label: string | undefined) =>
        broadcast ? `@${broadcast}` : (label ?? ''),
      )
      .replace(CHANNEL_MENTION, (_match, id: string, name: string | undefined) => `#${name || id}`)
      .replace(LINK, (_match, url: string, label: string | undefined) => (label ? `[${label}](${url})` : url)),
  );
}
