import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { z } from 'zod';
import {
  approvalPolicyHistory,
  deleteApprovalPolicy,
  getApprovalPolicy,
  listApprovalPolicies,
  setApprovalPolicy,
  type ApprovalPolicyChangeRow,
  type ApprovalPolicyRow,
} from '../../db/approval-policies';
import { projectApprovals, type ApprovalRow } from '../../db/approvals';
import { checkPolicy } from '../../approvals/policy-schema';
import { getProject } from '../../db/projects';
import { approvalFacts, evaluatePolicy, type ApprovalFacts, type ApprovalPolicy } from '../../pure/approval-policy';
import type { Principal } from '../../jobs/visibility';
import { Conflict, Forbidden, Invalid, NotFound } from '../../refusals/refusal';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';

const OrgId = z.string().regex(/^\S{1,128}$/, 'an org id: 1 to 128 characters without whitespace');
const Slug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase letters, digits and single dashes')
  .max(64);
const Target = z.object({ org: OrgId, slug: Slug });

/**
 * A policy as an admin sends it: the document itself (`policy`, JSON), or the same document as YAML text
 * (`policy_yaml`); exactly one.
 */
const PolicyInput = {
  policy: z.unknown().optional().describe('the policy document (docs/approval-policies.md)'),
  policy_yaml: z.string().max(100_000).optional().describe('the same document as YAML'),
};

const FactsSchema = z.object({
  action: z.string(),
  reason: z.string(),
  role: z.string(),
  paths: z.array(z.string()),
  cost_usd: z.number().nullable(),
  branch: z.string().nullable(),
});

export const ApprovalPolicyViewSchema = z.object({
  org_id: z.string(),
  project_slug: z.string(),
  policy: z.unknown().describe('the stored policy document'),
  policy_yaml: z
    .string()
    .describe('the policy as YAML: the text the admin sent (comments kept), or the document written out as YAML'),
  updated_by: z.string(),
  updated_at: z.string(),
});

const PolicyChangeSchema = z.object({
  change_id: z.string(),
  /** `set` (the policy below) or `removed` (every approval went to a person again). */
  change: z.enum(['set', 'removed']),
  policy: z.unknown().describe('the document set; null when removed'),
  policy_yaml: z.string().nullable().describe('the same as YAML; null when removed'),
  changed_by: z.string(),
  changed_at: z.string(),
});

const DryRunSchema = z.object({
  /** How many of the project's newest approvals were evaluated. */
  evaluated: z.number().int(),
  /** Those the policy would have decided, and those it would have left to a person. */
  would_approve: z.number().int(),
  would_reject: z.number().int(),
  to_a_person: z.number().int(),
  approvals: z.array(
    z.object({
      approval_id: z.string(),
      created_at: z.string(),
      action: z.string(),
      status: z.string(),
      decided_by: z.string().nullable(),
      /** What the policy sees; approvals from before policies have no recorded cost (`cost_usd` null). */
      request: FactsSchema,
      /** null: no rule matched, a person would decide. */
      would: z.object({ decision: z.enum(['approve', 'reject']), rule_id: z.string() }).nullable(),
    }),
  ),
});

const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };

function requireAdmin(principal: Principal): void {
  if (!principal.is_admin) {
    throw new Forbidden('admin_only', 'approval policies are read and changed by admins only');
  }
}

function view(row: ApprovalPolicyRow): z.infer<typeof ApprovalPolicyViewSchema> {
  return {
    org_id: row.org_id,
    project_slug: row.project_slug,
    policy: row.policy,
    policy_yaml: row.policy_yaml ?? toYaml(row.policy),
    updated_by: row.updated_by,
    updated_at: row.updated_at.toISOString(),
  };
}

function changeView(row: ApprovalPolicyChangeRow): z.infer<typeof PolicyChangeSchema> {
  const removed = row.policy === null;
  return {
    change_id: row.change_id,
    change: removed ? 'removed' : 'set',
    policy: row.policy,
    policy_yaml: removed ? null : (row.policy_yaml ?? toYaml(row.policy)),
    changed_by: row.changed_by,
    changed_at: row.changed_at.toISOString(),
  };
}

/** The document of a PUT or dry-run body, checked; a 400 `invalid_policy` says what is wrong with it. */
function policyOf(body: { policy?: unknown; policy_yaml?: string }): ApprovalPolicy | undefined {
  if (body.policy !== undefined && body.policy_yaml !== undefined) {
    throw new Invalid('invalid_request', 'give policy or policy_yaml, not both');
  }
  let raw = body.policy;
  if (body.policy_yaml !== undefined) {
    try {
      raw = parseYaml(body.policy_yaml) as unknown;
    } catch (err) {
      throw new Invalid('invalid_policy', `policy_yaml is not YAML: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  if (raw === undefined) return undefined;
  const checked = checkPolicy(raw);
  if (!checked.ok) throw new Invalid('invalid_policy', checked.issues.slice(0, 5).join('; '));
  return checked.policy;
}

/** What a stored approval's request was, for one recorded before policies: no cost, no branch. */
function factsOf(row: ApprovalRow): ApprovalFacts {
  return (
    row.request ??
    approvalFacts({ action: row.action, reason: row.reason, role: row.role, writtenFiles: [], costUsd: null })
  );
}

/**
 * Approval policies per project (docs/approval-policies.md), an admin's to list, set, remove and try: a dry run says
 * what a policy (the stored one, or one sent to try) would have decided for the project's newest approvals.
 */
export function approvalPolicyRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  /** The project's stored policy, checked again (a document stored under an older schema is a 409, not a guess). */
  async function storedPolicy(org: string, slug: string): Promise<ApprovalPolicy> {
    const row = await getApprovalPolicy(deps.pool, org, slug);
    if (!row) throw new NotFound(`approval policy of project ${slug} of org ${org} (send one to try)`);
    const checked = checkPolicy(row.policy);
    if (!checked.ok) throw new Conflict('policy_outdated', `the stored policy no longer passes: ${checked.issues[0]}`);
    return checked.policy;
  }

  return async (app) => {
    app.get(
      '/v1/admin/approval-policies',
      {
        schema: {
          querystring: z.strictObject({ org: OrgId.optional() }),
          response: { 200: z.object({ policies: z.array(ApprovalPolicyViewSchema) }), ...errors },
        },
      },
      async (request) => {
        requireAdmin(principalOf(request));
        return { policies: (await listApprovalPolicies(deps.pool, request.query.org ?? null)).map(view) };
      },
    );

    app.get(
      '/v1/admin/approval-policies/orgs/:org/projects/:slug',
      { schema: { params: Target, response: { 200: ApprovalPolicyViewSchema, 404: ErrorSchema, ...errors } } },
      async (request) => {
        requireAdmin(principalOf(request));
        const row = await getApprovalPolicy(deps.pool, request.params.org, request.params.slug);
        if (!row) throw new NotFound(`approval policy of project ${request.params.slug} of org ${request.params.org}`);
        return view(row);
      },
    );

    app.put(
      '/v1/admin/approval-policies/orgs/:org/projects/:slug',
      {
        schema: {
          params: Target,
          body: z.strictObject(PolicyInput),
          response: { 200: ApprovalPolicyViewSchema, 404: ErrorSchema, ...errors },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        requireAdmin(principal);
        const policy = policyOf(request.body);
        if (!policy) throw new Invalid('invalid_request', 'give policy or policy_yaml');
        const { org, slug } = request.params;
        const row = await setApprovalPolicy(deps.pool, {
          orgId: org,
          projectSlug: slug,
          policy,
          // The text as written, comments and all, when it was sent as YAML.
          policyYaml: request.body.policy_yaml ?? null,
          updatedBy: principal.user_id,
        });
        if (!row) throw new NotFound(`project ${slug} of org ${org}`);
        return view(row);
      },
    );

    app.delete(
      '/v1/admin/approval-policies/orgs/:org/projects/:slug',
      { schema: { params: Target, response: { 204: z.null(), 404: ErrorSchema, ...errors } } },
      async (request, reply) => {
        const principal = principalOf(request);
        requireAdmin(principal);
        const { org, slug } = request.params;
        if (!(await deleteApprovalPolicy(deps.pool, org, slug, principal.user_id)))
          throw new NotFound(`approval policy of project ${slug} of org ${org}`);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/v1/admin/approval-policies/orgs/:org/projects/:slug/history',
      {
        schema: {
          params: Target,
          querystring: z.strictObject({
            limit: z.coerce.number().int().min(1).max(200).default(50).describe('how many changes, newest first'),
          }),
          response: { 200: z.object({ changes: z.array(PolicyChangeSchema) }), 404: ErrorSchema, ...errors },
        },
      },
      async (request) => {
        requireAdmin(principalOf(request));
        const { org, slug } = request.params;
        if (!(await getProject(deps.pool, slug, org))) throw new NotFound(`project ${slug} of org ${org}`);
        const rows = await approvalPolicyHistory(deps.pool, org, slug, request.query.limit);
        return { changes: rows.map(changeView) };
      },
    );

    app.post(
      '/v1/admin/approval-policies/orgs/:org/projects/:slug/dry-run',
      {
        schema: {
          params: Target,
          body: z.strictObject({
            ...PolicyInput,
            last: z.number().int().min(1).max(500).default(20).describe("how many of the project's newest approvals"),
          }),
          response: { 200: DryRunSchema, 404: ErrorSchema, 409: ErrorSchema, ...errors },
        },
      },
      async (request) => {
        requireAdmin(principalOf(request));
        const { org, slug } = request.params;
        const policy = policyOf(request.body) ?? (await storedPolicy(org, slug));
        const rows = await projectApprovals(deps.pool, org, slug, request.body.last);
        const approvals = rows.map((row) => {
          const facts = factsOf(row);
          return {
            approval_id: row.approval_id,
            created_at: row.created_at.toISOString(),
            action: row.action,
            status: row.status,
            decided_by: row.decided_by,
            request: facts,
            would: evaluatePolicy(policy, facts) ?? null,
          };
        });
        const count = (d: 'approve' | 'reject') => approvals.filter((a) => a.would?.decision === d).length;
        return {
          evaluated: approvals.length,
          would_approve: count('approve'),
          would_reject: count('reject'),
          to_a_person: approvals.filter((a) => a.would === null).length,
          approvals,
        };
      },
    );
  };
}
