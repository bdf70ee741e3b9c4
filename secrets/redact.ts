/** What a secret's value is replaced with in text that leaves the process (logs, errors). */
export const REDACTED = '[secret]';

/**
 * `text` with every occurrence of `value` replaced by `[secret]`: for text built from what another system said about
 * a credential Keel sent it (a vendor's error message that echoes the key). Values shorter than 8 characters are
 * left alone, since replacing them would mangle ordinary words and such a value is no credential anyway.
 */
export function redactSecret(text: string, value: string | undefined): string {
  if (value === undefined || value.length < 8) return text;
  return text.split(value).join(REDACTED);
}
