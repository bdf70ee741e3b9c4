/**
 * Removes secrets and obvious personal data from prompt text before Keel stores or queues it.
 * Each kind is one row of REDACTION_RULES; rows run in order on the output of the previous row, so a
 * specific pattern claims its text first and later rows never see it again (markers match no pattern).
 */

export type RedactionKind =
  'private_key' | 'api_key' | 'bearer_token' | 'url_password' | 'email' | 'card_number' | 'phone';

export interface Redaction {
  kind: RedactionKind;
  count: number;
}

export interface RedactionResult {
  text: string;
  /** Only kinds that occurred, in REDACTION_RULES order. */
  redactions: Redaction[];
}

interface RedactionRule {
  kind: RedactionKind;
  /** Must carry the `g` flag. */
  pattern: RegExp;
  /** The replacement for one match, or null when a closer look shows the match is not sensitive after all. */
  replace: (match: RegExpMatchArray) => string | null;
}

const MARKER_PREFIX = '[REDACTED:';

function marker(kind: RedactionKind): string {
  return `${MARKER_PREFIX}${kind}]`;
}

// --- private_key -------------------------------------------------------------------------------------------

const PEM_LABEL = String.raw`(?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?`;
const PEM_BEGIN = String.raw`-----BEGIN ${PEM_LABEL}-----`;
const PEM_END = String.raw`-----END ${PEM_LABEL}-----`;
/**
 * A paste cut off before its END line is still a key: take the whole base64 lines (real or `\n`-escaped, as in
 * JSON) that follow BEGIN.
 */
const PEM_LINE_BREAK = String.raw`(?:\r?\n|\\n)`;
const PEM_TRUNCATED_BODY = String.raw`(?:${PEM_LINE_BREAK}[A-Za-z0-9+/=]+(?=${PEM_LINE_BREAK}|"|$))*`;
/** The body never crosses another BEGIN, so a truncated key cannot swallow the prose up to a later key's END. */
const PEM_BODY = String.raw`(?:(?!-----BEGIN )[\s\S])*?`;
const PRIVATE_KEY = new RegExp(String.raw`${PEM_BEGIN}(?:${PEM_BODY}${PEM_END}|${PEM_TRUNCATED_BODY})`, 'g');

// --- api_key -----------------------------------------------------------------------------------------------

const ANTHROPIC_KEY = String.raw`sk-ant-[A-Za-z0-9_-]{20,}`;
const OPENAI_KEY = String.raw`sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`;
const AWS_ACCESS_KEY_ID = String.raw`(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Za-z])`;
const GITHUB_TOKEN = String.raw`gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}`;
const SLACK_TOKEN = String.raw`xox[baprs]-[A-Za-z0-9-]{10,}`;
const GOOGLE_API_KEY = String.raw`AIza[0-9A-Za-z_-]{35}(?![\w-])`;
const STRIPE_SECRET_KEY = String.raw`[sr]k_(?:live|test)_[0-9A-Za-z]{16,}`;
const KNOWN_KEY_FORMAT = [
  ANTHROPIC_KEY,
  OPENAI_KEY,
  AWS_ACCESS_KEY_ID,
  GITHUB_TOKEN,
  SLACK_TOKEN,
  GOOGLE_API_KEY,
  STRIPE_SECRET_KEY,
].join('|');
const KNOWN_KEY_WHOLE = new RegExp(String.raw`^(?:${KNOWN_KEY_FORMAT})$`);

/**
 * Names whose value is a secret, in the spellings code and config use (snake, kebab, camel, upper). The name
 * must end with one of these, so `max_tokens` or `token_count` is not a secret but `GITHUB_TOKEN` is.
 * `pwd` is left out on purpose: `PWD=/home/me` is the working directory.
 */
const SECRET_NAME = [
  String.raw`[Aa]pi[_-]?[Kk]ey|API[_-]?KEY`,
  String.raw`[Ss]ecret(?:[_-]?(?:[Aa]ccess[_-]?)?[Kk]ey)?|SECRET(?:[_-]?(?:ACCESS[_-]?)?KEY)?`,
  String.raw`[Tt]oken|TOKEN`,
  String.raw`[Pp]ass(?:word|wd|phrase)|PASS(?:WORD|WD|PHRASE)`,
].join('|');
/** `password: str = "..."` (Python, TypeScript): skip the type so the assigned value is the one redacted. */
const TYPE_ANNOTATION = String.raw`[ \t]*:[ \t]*[A-Za-z_][\w.]*(?:\[[^\]\r\n]*\])?(?=[ \t]+=)`;
/** `=`, `:=` or `:`, but not `==`, `=>`, `=~` or `::`, which are comparisons, arrows and paths in code. */
const ASSIGNMENT_OPERATOR = String.raw`(?::=|=(?![=>~])|:(?!:))`;
const BARE_VALUE_CHAR = String.raw`[^\s"'\`,;&<>(){}[\]]`;
// A name right after `scheme://` is a URL's user (`https://x-access-token:…@host`), left to url_password.
const SECRET_ASSIGNMENT =
  String.raw`(?<name>(?<![\w.-])(?<!://)["']?[\w.-]*?(?:${SECRET_NAME})["']?\??(?:${TYPE_ANNOTATION})?[ \t]*${ASSIGNMENT_OPERATOR}[ \t]*)` +
  String.raw`(?:"(?<doubleQuoted>[^"\r\n]+)"|'(?<singleQuoted>[^'\r\n]+)'|(?![$%])(?<bare>${BARE_VALUE_CHAR}+)(?<callOrIndex>[([])?)`;
const API_KEY = new RegExp(String.raw`(?<![\w-])(?:${KNOWN_KEY_FORMAT})|${SECRET_ASSIGNMENT}`, 'g');

// --- bearer_token ------------------------------------------------------------------------------------------

const JWT = String.raw`eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]*`;
const JWT_WHOLE = new RegExp(String.raw`^${JWT}$`);
/** A token68 value of 16+ characters with a digit in it, so prose such as "Bearer authentication" is kept. */
const BEARER_CREDENTIALS = String.raw`(?<scheme>\b(?:[Bb]earer|BEARER)[ \t]+)(?=[\w.~+/-]*\d)[\w.~+/-]{16,}=*`;
const BEARER_TOKEN = new RegExp(String.raw`${BEARER_CREDENTIALS}|(?<![\w-])${JWT}`, 'g');

// --- url_password ------------------------------------------------------------------------------------------

/** The password may contain `@` (people rarely percent-encode it), so it runs to the last `@` before the path. */
const URL_PASSWORD = new RegExp(
  String.raw`(?<prefix>(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*://[^\s:@/?#]*:)(?!\[REDACTED:)[^\s/?#]+@`,
  'g',
);

// --- email -------------------------------------------------------------------------------------------------

/**
 * Not the user in a URL (`https://user@host`) nor an scp-style git remote (`git@github.com:org/repo.git`):
 * those name a login on a host, not a mailbox.
 */
const EMAIL = new RegExp(
  String.raw`(?<![\w.%+-])(?<!://)[A-Za-z0-9._%+-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}(?![\w-])(?!:[\w~/])`,
  'g',
);

// --- card_number -------------------------------------------------------------------------------------------

/**
 * Only major-industry digits 2–6 (banking and payment networks) and only the groupings cards are printed in, so
 * millisecond timestamps (which start with 1) and runs of unrelated numbers are not candidates; Luhn decides.
 */
const CARD_CONTIGUOUS = String.raw`[2-6]\d{12,18}`;
const CARD_FOUR_BY_FOUR = String.raw`[2-6]\d{3}(?<sep>[ -])\d{4}\k<sep>\d{4}\k<sep>\d{4}`;
const CARD_AMEX_OR_DINERS = String.raw`3\d{3}(?<amexSep>[ -])\d{6}\k<amexSep>\d{4,5}`;
const CARD_NUMBER = new RegExp(
  String.raw`(?<![\w.+-])(?:${CARD_FOUR_BY_FOUR}|${CARD_AMEX_OR_DINERS}|${CARD_CONTIGUOUS})(?!\w|[.-]\d)`,
  'g',
);

/** True when `digits` (digits only) passes the Luhn checksum every payment card number carries. */
function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

// --- phone -------------------------------------------------------------------------------------------------

/** `+` and a country code, then 6–12 more digits (E.164 allows 15 in all) with optional separators. */
const PHONE_INTERNATIONAL = String.raw`\+[1-9]\d{0,2}(?:[ .-]?\(\d{1,4}\))?(?:[ .-]?\d){6,12}`;
const PHONE_NANP_PARENTHESES = String.raw`(?:1[ .-]?)?\([2-9]\d{2}\)[ .-]?\d{3}[ .-]\d{4}`;
/**
 * 3-3-4 with the same `-` or `.` twice. Bare space-separated digits are not taken without `+1` or parentheses:
 * `555 123 4567` is as likely a list of numbers as a phone.
 */
const PHONE_NANP_SEPARATED = String.raw`(?:1[ .-])?[2-9]\d{2}(?<phoneSep>[-.])\d{3}\k<phoneSep>\d{4}`;
const PHONE = new RegExp(
  String.raw`(?<![\w.+-])(?:${PHONE_INTERNATIONAL}|${PHONE_NANP_PARENTHESES}|${PHONE_NANP_SEPARATED})(?!\w|[.-]\d)`,
  'g',
);

// --- the table ---------------------------------------------------------------------------------------------

/**
 * A bare (unquoted) value is only a secret when it mixes in a digit and is not a plain number, a call or an index
 * (`$VAR` and `%VAR%` references are already refused by the pattern): that keeps `token = getToken()`, `password=password`, `token: it` and `token_limit: 4096`
 * readable, while `password=hunter2` and `X-Api-Key: 3f9c...` are redacted. Quoted values are always secrets.
 */
function isSecretBareValue(value: string, continuesAsCallOrIndex: boolean): boolean {
  return !continuesAsCallOrIndex && /\d/.test(value) && !/^[\d.,_+-]+$/.test(value);
}

function redactApiKey(match: RegExpMatchArray): string | null {
  const groups = match.groups ?? {};
  const name = groups.name;
  if (name === undefined) return marker('api_key');
  const { doubleQuoted, singleQuoted, bare, callOrIndex } = groups;
  const value = doubleQuoted ?? singleQuoted ?? bare ?? '';
  // Already-redacted values stay put, and a JWT is left for the bearer_token row so it is reported as one.
  if (value.startsWith(MARKER_PREFIX) || JWT_WHOLE.test(value)) return null;
  if (bare !== undefined && !KNOWN_KEY_WHOLE.test(bare) && !isSecretBareValue(bare, callOrIndex !== undefined)) {
    return null;
  }
  const quote = doubleQuoted !== undefined ? '"' : singleQuoted !== undefined ? "'" : '';
  return `${name}${quote}${marker('api_key')}${quote}`;
}

const REDACTION_RULES: readonly RedactionRule[] = [
  { kind: 'private_key', pattern: PRIVATE_KEY, replace: () => marker('private_key') },
  { kind: 'api_key', pattern: API_KEY, replace: redactApiKey },
  {
    kind: 'bearer_token',
    pattern: BEARER_TOKEN,
    replace: (match) => `${match.groups?.scheme ?? ''}${marker('bearer_token')}`,
  },
  {
    kind: 'url_password',
    pattern: URL_PASSWORD,
    replace: (match) => `${match.groups?.prefix ?? ''}${marker('url_password')}@`,
  },
  { kind: 'email', pattern: EMAIL, replace: () => marker('email') },
  {
    kind: 'card_number',
    pattern: CARD_NUMBER,
    replace: (match) => (passesLuhn(match[0].replace(/\D/g, '')) ? marker('card_number') : null),
  },
  { kind: 'phone', pattern: PHONE, replace: () => marker('phone') },
];

function applyRule(text: string, rule: RedactionRule): { text: string; count: number } {
  let output = '';
  let copiedUpTo = 0;
  let count = 0;
  for (const match of text.matchAll(rule.pattern)) {
    const replacement = rule.replace(match);
    if (replacement === null) continue;
    const start = match.index ?? 0;
    output += text.slice(copiedUpTo, start) + replacement;
    copiedUpTo = start + match[0].length;
    count++;
  }
  return { text: output + text.slice(copiedUpTo), count };
}

/**
 * Replaces secrets (private keys, API keys, bearer tokens and JWTs, URL passwords) and obvious personal data
 * (emails, Luhn-valid card numbers, phone numbers) in `text` with `[REDACTED:<kind>]` markers.
 * Where a secret sits in a readable context only the secret goes: `password=` keeps its name, `Bearer ` its
 * scheme, and a URL its scheme, user and host. Idempotent: redacting redacted text changes nothing and reports
 * nothing. Heuristic by nature; it errs towards keeping ordinary numbers, code and prose intact.
 */
export function redactPrompt(text: string): RedactionResult {
  let current = text;
  const redactions: Redaction[] = [];
  for (const rule of REDACTION_RULES) {
    const result = applyRule(current, rule);
    current = result.text;
    if (result.count > 0) redactions.push({ kind: rule.kind, count: result.count });
  }
  return { text: current, redactions };
}
