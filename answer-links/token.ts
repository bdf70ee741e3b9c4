import crypto from 'node:crypto';
import { z } from 'zod';

/**
 * What an answer link lets its holder do: answer one `ask_user` question, decide one approval or complete one human
 * task of one job, until `expires_at`. The link is these claims plus an HMAC-SHA256 over them with the deployment's
 * answer-link secret (docs/answer-links.md), so it needs no row to exist and the same event always carries the same URL.
 */
export const ANSWER_LINK_KINDS = ['question', 'approval', 'task'] as const;
export type AnswerLinkKind = (typeof ANSWER_LINK_KINDS)[number];

export interface AnswerLinkClaims {
  job_id: string;
  kind: AnswerLinkKind;
  /** The question's call id, the approval id or the human task id. */
  target: string;
  /** Unix seconds after which the link is refused (410 expired). */
  expires_at: number;
}

/** The claims as they ride in a token: short keys, since the token is part of a URL posted in chat threads. */
const WireClaims = z.strictObject({
  j: z.string().min(1).max(200),
  k: z.enum(ANSWER_LINK_KINDS),
  t: z.string().min(1).max(200),
  e: z.number().int().positive(),
});

/** Tokens are `<claims>.<signature>`, both base64url; the version is in the signed prefix so a v2 cannot be replayed as v1. */
const SIGNED_PREFIX = 'keel-answer-link.v1.';

/** The longest token accepted: the longest claims encode to well under this. */
export const MAX_TOKEN_CHARS = 1_000;

function mac(secret: string, encodedClaims: string): Buffer {
  return crypto
    .createHmac('sha256', secret)
    .update(SIGNED_PREFIX + encodedClaims)
    .digest();
}

/** The token for `claims`, deterministic for a given secret (the same claims always give the same token). */
export function signAnswerLink(claims: AnswerLinkClaims, secret: string): string {
  const wire = { j: claims.job_id, k: claims.kind, t: claims.target, e: claims.expires_at };
  const encoded = Buffer.from(JSON.stringify(wire)).toString('base64url');
  return `${encoded}.${mac(secret, encoded).toString('base64url')}`;
}

/**
 * The claims of a token this secret signed, or null for anything else (a changed character, a token of another
 * deployment, garbage). Never throws. The signature is compared in constant time before the claims are parsed.
 */
export function verifyAnswerLink(token: string, secret: string): AnswerLinkClaims | null {
  if (token.length > MAX_TOKEN_CHARS) return null;
  const parts = token.split('.');
  if (parts.length !== 2) return null;
  const [encoded, signature] = parts as [string, string];
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(secret, encoded);
  // base64url decoding skips stray characters, so the re-encoding must match too: one token, one spelling.
  if (given.length !== expected.length || given.toString('base64url') !== signature) return null;
  if (!crypto.timingSafeEqual(given, expected)) return null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const parsed = WireClaims.safeParse(json);
  if (!parsed.success) return null;
  return { job_id: parsed.data.j, kind: parsed.data.k, target: parsed.data.t, expires_at: parsed.data.e };
}

/**
 * A link's short public name, recorded as who answered (`link:<id>`): the first 16 hex digits of the token's SHA-256.
 * It names the link without being it, so an audit row or a console label never holds a usable token.
 */
export function answerLinkId(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex').slice(0, 16);
}
