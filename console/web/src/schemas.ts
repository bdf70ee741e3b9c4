import * as z from 'zod/mini';
import { ForkedFrom, ForkOf } from './fork/fork-schemas';

/** Answers of the console's HTTP API, checked at the boundary. Loose: fields the server adds later are kept. */

export const ConsoleConfig = z.looseObject({
  passwordLogin: z.boolean(),
  oidcProviders: z.array(z.looseObject({ id: z.string(), name: z.string() })),
  temporalUiUrl: z.nullable(z.optional(z.string())),
  temporalNamespace: z.optional(z.string()),
});
export type ConsoleConfig = z.infer<typeof ConsoleConfig>;

export const SessionUser = z.looseObject({ id: z.string(), email: z.string(), role: z.string() });
export type SessionUser = z.infer<typeof SessionUser>;
export const Session = z.looseObject({ user: SessionUser });

export const Budget = z.looseObject({
  exempt: z.boolean(),
  budgetCents: z.nullable(z.number()),
  spentCents: z.number(),
  remainingCents: z.nullable(z.number()),
  overBudget: z.boolean(),
  periodStart: z.string(),
});
export type Budget = z.infer<typeof Budget>;

export const Project = z.looseObject({ slug: z.string(), name: z.string(), created_at: z.string() });
export type Project = z.infer<typeof Project>;
export const ProjectList = z.looseObject({ projects: z.array(Project) });

/** GET /api/v1/scenarios: the names a submission accepts. */
export const Scenario = z.looseObject({
  name: z.string(),
  description: z.string(),
  default: z.boolean(),
  chain: z.nullable(z.string()),
});
export type Scenario = z.infer<typeof Scenario>;
export const ScenarioList = z.looseObject({ scenarios: z.array(Scenario) });

export const FOLLOW_UP_POLICIES = ['amend', 'enqueue', 'interrupt', 'reject'] as const;
export type FollowUpPolicy = (typeof FOLLOW_UP_POLICIES)[number];

export const Workflow = z.looseObject({
  workflow_id: z.string(),
  project_slug: z.nullable(z.string()),
  created_by: z.string(),
  updated_at: z.string(),
  hidden: z.boolean(),
  status: z.string(),
  latest_job_id: z.nullable(z.string()),
  scenario: z.optional(z.string()),
  /** The owner's title, else the first prompt's first line; `title_set` says which. */
  title: z.string(),
  title_set: z.boolean(),
  created_at: z.nullable(z.string()),
  /** The latest job's run; null until it started (and finished). */
  started_at: z.nullable(z.string()),
  finished_at: z.nullable(z.string()),
  /** All of the workflow's jobs, in USD. */
  cost_usd: z.number(),
  /** What a prompt does while a job runs (docs/follow-up-policies.md); null: none set. */
  follow_up_policy: z.optional(z.nullable(z.enum(FOLLOW_UP_POLICIES))),
});
export type Workflow = z.infer<typeof Workflow>;
export const WorkflowPage = z.looseObject({ workflows: z.array(Workflow), next_cursor: z.nullable(z.string()) });
export type WorkflowPage = z.infer<typeof WorkflowPage>;
/** `job_id` is null when the ingest API stores workflows without running jobs (no database: KEEL_EMBEDDED_DB=off). */
export const WorkflowCreated = z.looseObject({
  workflow: Workflow,
  prompt_id: z.string(),
  job_id: z.nullable(z.string()),
});
export const Hidden = z.looseObject({ workflow_id: z.string(), hidden: z.boolean() });

export const PromptThread = z.looseObject({
  prompt_id: z.string(),
  prompt: z.string(),
  created_by: z.string(),
  created_at: z.string(),
  job_id: z.nullable(z.string()),
  delivered: z.string(),
});
export type PromptThread = z.infer<typeof PromptThread>;
export const PromptList = z.looseObject({ prompts: z.array(PromptThread) });
export const PromptAccepted = z.looseObject({
  prompt_id: z.string(),
  job_id: z.nullable(z.string()),
  delivered: z.string(),
});

export const Agent = z.looseObject({
  role: z.string(),
  prompt: z.optional(z.string()),
  tools: z.optional(z.array(z.string())),
  requirements: z.optional(z.array(z.string())),
  effort: z.optional(z.string()),
});
export type Agent = z.infer<typeof Agent>;
export const GraphEdge = z.looseObject({ from: z.string(), to: z.string(), prompt: z.optional(z.string()) });
export type GraphEdge = z.infer<typeof GraphEdge>;
export const AgentGraph = z.looseObject({
  version: z.number(),
  scenario: z.string(),
  agents: z.array(Agent),
  edges: z.array(GraphEdge),
  order: z.array(z.string()),
  chain: z.nullable(z.looseObject({ scenario: z.string() })),
});
export type AgentGraph = z.infer<typeof AgentGraph>;

export const RunLevel = z.looseObject({
  level_id: z.string(),
  role: z.string(),
  attempt: z.number(),
  scenario: z.nullable(z.string()),
  started_at: z.string(),
  finished_at: z.nullable(z.string()),
  duration_ms: z.nullable(z.number()),
  ok: z.nullable(z.boolean()),
  verdict: z.nullable(z.string()),
  deltas: z.array(z.string()),
  intended_model: z.nullable(z.string()),
  provider: z.nullable(z.string()),
  model: z.nullable(z.string()),
  cost_usd: z.number(),
});
export type RunLevel = z.infer<typeof RunLevel>;
export const RunGraph = z.looseObject({
  job_id: z.string(),
  status: z.string(),
  scenarios: z.array(z.string()),
  levels: z.array(RunLevel),
  edges: z.array(z.looseObject({ from: z.string(), to: z.string(), kind: z.string() })),
  total_cost_usd: z.number(),
});
export type RunGraph = z.infer<typeof RunGraph>;

export const JobQueue = z.looseObject({
  org_id: z.string(),
  state: z.enum(['queued', 'running', 'released']),
  /** Its place in its org's queue while queued (1 is next). */
  position: z.nullable(z.number()),
  reason: z.nullable(z.enum(['org_limit', 'project_limit', 'total_limit'])),
  /** The job's project; with `reason` `project_limit`, the project whose own limit it waits under. */
  project_slug: z.optional(z.nullable(z.string())),
  project_limit: z.optional(z.nullable(z.number())),
  enqueued_at: z.string(),
  granted_at: z.nullable(z.string()),
  released_at: z.nullable(z.string()),
});
export type JobQueue = z.infer<typeof JobQueue>;
export const Job = z.looseObject({
  job_id: z.string(),
  workflow_id: z.string(),
  prompt_id: z.string(),
  status: z.string(),
  project_slug: z.nullable(z.string()),
  model_tier: z.nullable(z.string()),
  created_by: z.string(),
  summary: z.nullable(z.string()),
  error: z.nullable(z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
  /** A fork's source, and a source's forks (docs/fork-and-compare.md); absent from an API that predates forks. */
  forked_from: z.optional(z.nullable(ForkedFrom)),
  forks: z.optional(z.array(ForkOf)),
  /**
   * The job's place under fair scheduling (docs/scheduling.md): null when it claimed no slot (scheduling off), absent
   * from an API that predates it.
   */
  queue: z.optional(z.nullable(JobQueue)),
});
export type Job = z.infer<typeof Job>;
export const JobFiles = z.looseObject({
  files: z.array(z.looseObject({ path: z.string(), sha256: z.string(), size_bytes: z.number() })),
});
export const Cancelled = z.looseObject({ status: z.string() });

/** The spec's envelope; the payload stays a record because the kind catalog grows. */
export const AgentEvent = z.looseObject({
  schema_version: z.optional(z.string()),
  job_id: z.string(),
  agent_role: z.string(),
  sequence: z.number(),
  occurred_at: z.string(),
  kind: z.string(),
  payload: z.record(z.string(), z.unknown()),
});
export type AgentEvent = z.infer<typeof AgentEvent>;

export const Approval = z.looseObject({
  approval_id: z.string(),
  job_id: z.string(),
  workflow_id: z.string(),
  role: z.string(),
  action: z.string(),
  reason: z.string(),
  status: z.string(),
  decided_by: z.nullable(z.string()),
  decided_at: z.nullable(z.string()),
  comment: z.nullable(z.string()),
  created_at: z.string(),
});
export type Approval = z.infer<typeof Approval>;
export const ApprovalList = z.looseObject({ approvals: z.array(Approval) });

export const Quota = z.looseObject({ used: z.number(), limit: z.number(), reset_ms: z.number() });
export const ModelRow = z.looseObject({
  provider: z.string(),
  model: z.string(),
  display_name: z.string(),
  features: z.array(z.string()),
  cost_tier: z.string(),
  pricing_per_1k: z.nullable(z.looseObject({ input: z.number(), output: z.number() })),
  context_tokens: z.number(),
  quota: z.nullable(z.record(z.string(), Quota)),
  configured: z.boolean(),
  allowed: z.boolean(),
});
export type ModelRow = z.infer<typeof ModelRow>;
export const ModelList = z.looseObject({ models: z.array(ModelRow) });

export const AdminUser = z.looseObject({
  id: z.string(),
  email: z.string(),
  name: z.optional(z.nullable(z.string())),
  role: z.string(),
  status: z.string(),
  budgetCents: z.nullable(z.number()),
  spentCents: z.number(),
  /** null: an exempt admin; absent from an identity service older than the field. */
  remainingCents: z.optional(z.nullable(z.number())),
  overBudget: z.optional(z.boolean()),
  createdAt: z.optional(z.string()),
});
export type AdminUser = z.infer<typeof AdminUser>;
export const AdminUsers = z.looseObject({ users: z.array(AdminUser) });
/** POST /api/admin/users: the user as created (pending approval). */
export const AdminUserCreated = z.looseObject({
  user: z.looseObject({ id: z.string(), email: z.string(), status: z.string() }),
});

export const AtlasDomains = z.looseObject({
  sources: z.array(z.looseObject({ source: z.string(), documents: z.number(), chunks: z.number() })),
  tags: z.array(z.looseObject({ tag: z.string(), documents: z.number() })),
});
const DocRef = z.looseObject({
  kh_id: z.string(),
  path: z.string(),
  title: z.nullable(z.optional(z.string())),
  sensitivity: z.optional(z.string()),
  tags: z.optional(z.array(z.string())),
  source: z.optional(z.string()),
  updated_at: z.optional(z.nullable(z.string())),
});
export type DocRef = z.infer<typeof DocRef>;
export const AtlasScope = z.looseObject({ documents: z.array(DocRef), next_cursor: z.nullable(z.string()) });
const Linked = z.looseObject({
  kh_id: z.nullable(z.optional(z.string())),
  path: z.nullable(z.optional(z.string())),
  title: z.nullable(z.optional(z.string())),
});
export const AtlasNode = z.looseObject({
  document: DocRef,
  neighbours: z.array(
    z.looseObject({
      kh_id: z.string(),
      path: z.string(),
      title: z.nullable(z.optional(z.string())),
      similarity: z.number(),
    }),
  ),
  links: z.looseObject({ outgoing: z.array(Linked), incoming: z.array(Linked) }),
});
export type AtlasNode = z.infer<typeof AtlasNode>;
export const KbDoc = z.looseObject({
  kh_id: z.string(),
  path: z.string(),
  title: z.nullable(z.optional(z.string())),
  markdown: z.string(),
  sensitivity: z.string(),
  tags: z.array(z.string()),
  source: z.string(),
  source_url: z.nullable(z.optional(z.string())),
  /** What an edit names as `base_hash`, so a change made meanwhile is refused rather than overwritten. */
  content_hash: z.string(),
});
export type KbDoc = z.infer<typeof KbDoc>;
export const KbResults = z.looseObject({
  results: z.array(
    z.looseObject({
      chunk_id: z.string(),
      kh_id: z.string(),
      path: z.string(),
      title: z.nullable(z.optional(z.string())),
      heading: z.nullable(z.optional(z.string())),
      snippet: z.string(),
      score: z.number(),
      sensitivity: z.string(),
    }),
  ),
});
