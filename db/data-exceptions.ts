/**
 * PostgreSQL's data exceptions a request's values cause: text with NUL (22021), an unusable escape (22P05), a number out
 * of range for its column (22003), text that is not the column's type (22P02), a bad date (22007, 22008).
 */
const INPUT_DATA_EXCEPTIONS: Record<string, string> = {
  '22021': 'a value contains a character the database cannot store (e.g. NUL)',
  '22P05': 'a value contains an escape the database cannot store (e.g. \\u0000)',
  '22003': 'a number is out of range',
  '22P02': 'a value is not of the expected type',
  '22007': 'a date or time is not valid',
  '22008': 'a date or time is out of range',
};

/** The client-readable reason when `err` is a database refusal of a request's value, else undefined. */
export function inputDataException(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && Object.hasOwn(INPUT_DATA_EXCEPTIONS, code)
    ? INPUT_DATA_EXCEPTIONS[code]
    : undefined;
}
