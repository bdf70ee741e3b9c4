import Negotiator from 'negotiator';

/**
 * Whether a request's `Accept` header admits `mediaType`, by RFC 9110 media-range rules (`*\/*`, `type/*`, exact
 * types, q-values, `q=0` refusing): negotiator is jshttp's media-type negotiator, the one Express's `req.accepts`
 * stands on. No header admits anything (RFC 9110 §12.5.1), and neither does an empty one: clients that send
 * `Accept:` with no value mean "no preference", not "nothing".
 */
export function acceptsMediaType(accept: string | undefined, mediaType: string): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return new Negotiator({ headers: { accept } }).mediaType([mediaType]) !== undefined;
}
