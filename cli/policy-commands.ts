// `keel policy`: a project's approval policy — read it, set it from a YAML file, try it on the project's last
// approvals, and list its history (docs/approval-policies.md). Admins only, as the API is.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ApiError, dataOf } from '../clients/client';
import { UsageError, type ApiTarget } from './api';
import { reach } from './api-request';
import { table } from './table';

const PolicyView = z.looseObject({ policy_yaml: z.string(), updated_by: z.string(), updated_at: z.string() });
const DryRun = z.looseObject({
  evaluated: z.number(),
  would_approve: z.number(),
  would_reject: z.number(),
  to_a_person: z.number(),
  approvals: z.array(
    z.looseObject({
      approval_id: z.string(),
      created_at: z.string(),
      action: z.string(),
      status: z.string(),
      would: z.looseObject({ decision: z.string(), rule_id: z.string() }).nullable(),
    }),
  ),
});
export type DryRun = z.infer<typeof DryRun>;
const History = z.looseObject({
  changes: z.array(
    z.looseObject({
      change: z.string(),
      changed_by: z.string(),
      changed_at: z.string(),
      policy_yaml: z.string().nullable(),
    }),
  ),
});

export const POLICY_USAGE = `  keel policy <org>/<project> [--json]
      (admin) The project's approval policy as YAML, and who set it when.
  keel policy <org>/<project> --set <file.yaml|->
      (admin) Set the policy from a YAML file (- reads stdin); a refused policy says what is wrong, nothing is stored.
  keel policy <org>/<project> --dry-run [--file <file.yaml|->] [--last N] [--json]
      (admin) What the policy (stored, or the file's) would have decided for the project's last N approvals.
  keel policy <org>/<project> --history [--json]
      (admin) Every change of the project's policy, newest first.`;

/** `org/project` → its two parts. */
export function projectOf(text: string | undefined): { org: string; slug: string } {
  const match = /^([^/\s]+)\/([^/\s]+)$/.exec(text ?? '');
  if (!match) throw new UsageError('keel policy needs <org>/<project>, e.g. acme/docs');
  return { org: match[1]!, slug: match[2]! };
}

async function readYaml(file: string): Promise<string> {
  if (file !== '-') return readFile(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function runPolicy(target: ApiTarget, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      set: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      file: { type: 'string' },
      last: { type: 'string' },
      history: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) throw new UsageError('keel policy needs one <org>/<project>');
  const path = projectOf(positionals[0]);
  const print = (value: unknown, text: string) => console.log(values.json ? JSON.stringify(value, null, 2) : text);

  if (values.set !== undefined) {
    const policy_yaml = await readYaml(values.set);
    const view = await reach(target, async (client) =>
      PolicyView.parse(
        dataOf(
          await client.PUT('/v1/admin/approval-policies/orgs/{org}/projects/{slug}', {
            params: { path },
            body: { policy_yaml },
          }),
        ),
      ),
    );
    console.log(`approval policy of ${path.org}/${path.slug} set by ${view.updated_by} at ${view.updated_at}`);
    return 0;
  }
  if (values['dry-run']) {
    const last = values.last === undefined ? undefined : Number(values.last);
    if (last !== undefined && (!Number.isInteger(last) || last < 1 || last > 500)) {
      throw new UsageError('--last is a whole number from 1 to 500');
    }
    const body = {
      ...(values.file !== undefined ? { policy_yaml: await readYaml(values.file) } : {}),
      ...(last !== undefined ? { last } : {}),
    };
    const run = await reach(target, async (client) =>
      DryRun.parse(
        dataOf(
          await client.POST('/v1/admin/approval-policies/orgs/{org}/projects/{slug}/dry-run', {
            params: { path },
            body,
          }),
        ),
      ),
    );
    print(run, renderDryRun(run));
    return 0;
  }
  if (values.history) {
    const history = await reach(target, async (client) =>
      History.parse(
        dataOf(
          await client.GET('/v1/admin/approval-policies/orgs/{org}/projects/{slug}/history', { params: { path } }),
        ),
      ),
    );
    const cells = history.changes.map((c) => [c.changed_at, c.change, c.changed_by]);
    print(history, cells.length === 0 ? 'No changes yet.' : table(['WHEN', 'CHANGE', 'BY'], cells));
    return 0;
  }
  try {
    const view = await reach(target, async (client) =>
      PolicyView.parse(
        dataOf(await client.GET('/v1/admin/approval-policies/orgs/{org}/projects/{slug}', { params: { path } })),
      ),
    );
    print(view, `# set by ${view.updated_by} at ${view.updated_at}\n${view.policy_yaml.trimEnd()}`);
  } catch (err) {
    // A project with no policy is not an error for a person asking: every approval goes to a person.
    if (!(err instanceof ApiError) || err.status !== 404 || !err.message.includes('approval policy')) throw err;
    print(null, `${path.org}/${path.slug} has no approval policy: every approval goes to a person.`);
  }
  return 0;
}

/** The counts, then one row an approval: what it was, how it went then, what the policy would do. */
export function renderDryRun(run: DryRun): string {
  const head =
    `${run.evaluated} approval${run.evaluated === 1 ? '' : 's'}: ${run.would_approve} would be approved, ` +
    `${run.would_reject} rejected, ${run.to_a_person} left to a person`;
  if (run.approvals.length === 0) return head;
  const cells = run.approvals.map((a) => [
    a.created_at.slice(0, 19).replace('T', ' '),
    a.action,
    a.status,
    a.would ? `${a.would.decision} (rule ${a.would.rule_id})` : 'ask a person',
  ]);
  return [head, '', table(['REQUESTED', 'ACTION', 'THEN', 'THIS POLICY'], cells)].join('\n');
}
