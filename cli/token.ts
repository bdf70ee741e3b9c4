import { parseArgs } from 'node:util';
import type { Pool } from 'pg';
import { listTokens, revokeToken, type TokenListing } from '../db/tokens';

export const TOKEN_USAGE = `  keel token list [--user <id>] [--org <id>] [--all]
      List API tokens (never their secrets): id, user, org, admin, label, created, expires, last used; revoked ones
      only with --all.
  keel token revoke <token-id>
      Revoke a token at once; its next request is 401.`;

/** Days a token made by `keel token create` lives unless --expires-in or --no-expiry says otherwise. */
export const CLI_TOKEN_DAYS = 90;

/** When `keel token create` makes its token expire: null for --no-expiry. */
export function cliExpiry(values: { 'expires-in'?: string; 'no-expiry'?: boolean }, nowMs: number): Date | null {
  if (values['no-expiry']) {
    if (values['expires-in'] !== undefined) throw new Error('give --expires-in or --no-expiry, not both');
    return null;
  }
  const raw = values['expires-in'] ?? `${CLI_TOKEN_DAYS}d`;
  const match = /^([1-9]\d{0,3})d$/.exec(raw);
  if (!match) throw new Error(`--expires-in is a number of days such as 30d, not ${raw}`);
  return new Date(nowMs + Number(match[1]) * 24 * 60 * 60 * 1000);
}

const day = (d: Date | null) => (d ? d.toISOString().slice(0, 16).replace('T', ' ') : '-');

function row(t: TokenListing): string[] {
  return [
    t.token_id,
    t.user_id,
    t.org_id,
    t.is_admin ? 'admin' : t.acts_for_users ? 'acts' : '',
    t.label ?? '',
    day(t.created_at),
    t.expires_at ? day(t.expires_at) : 'never',
    day(t.last_used_at),
    t.revoked_at ? `revoked ${day(t.revoked_at)}` : '',
  ];
}

/** Columns padded to their widest cell. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export async function listTokensCommand(pool: Pool, args: string[], print: (line: string) => void): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { user: { type: 'string' }, org: { type: 'string' }, all: { type: 'boolean', default: false } },
  });
  const tokens = (await listTokens(pool, { userId: values.user, orgId: values.org })).filter(
    (t) => values.all || t.revoked_at === null,
  );
  const header = ['TOKEN', 'USER', 'ORG', 'ROLE', 'LABEL', 'CREATED', 'EXPIRES', 'LAST USED', ''];
  print(table([header, ...tokens.map(row)]));
  return 0;
}

export async function revokeTokenCommand(pool: Pool, args: string[], print: (line: string) => void): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  if (positionals.length !== 1) throw new Error('keel token revoke needs exactly one <token-id>');
  const revoked = await revokeToken(pool, positionals[0]!);
  if (!revoked) {
    print(`no token ${positionals[0]}`);
    return 1;
  }
  print(
    `revoked ${revoked.token_id} (user ${revoked.user_id}, org ${revoked.org_id}) at ${revoked.revoked_at!.toISOString()}`,
  );
  return 0;
}
