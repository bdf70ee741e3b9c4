import { Counter, Gauge, Histogram } from 'prom-client';
import { registry } from './registry';

// Every series Keel exports, in one place so docs/metrics.md can be checked against it. Labels are bounded sets
// (route templates, roles, providers, models from the catalog, statuses): never ids, prompts or users.

const registers = [registry];
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export const httpRequests = new Counter({
  name: 'keel_http_requests_total',
  help: 'HTTP requests answered, by service, method, route template and status code.',
  labelNames: ['service', 'method', 'route', 'status'] as const,
  registers,
});
export const httpRequestSeconds = new Histogram({
  name: 'keel_http_request_duration_seconds',
  help: 'Time from request received to response sent (for a stream: until it closed).',
  labelNames: ['service', 'method', 'route'] as const,
  buckets: SECONDS,
  registers,
});

export const jobsStarted = new Counter({
  name: 'keel_jobs_started_total',
  help: 'Jobs admitted and started, by requested model tier (`default` when the submission named none).',
  labelNames: ['tier'] as const,
  registers,
});
export const jobsFinished = new Counter({
  name: 'keel_jobs_finished_total',
  help: 'Jobs that ended, by status (completed, failed, cancelled).',
  labelNames: ['status'] as const,
  registers,
});
export const levelRuns = new Counter({
  name: 'keel_level_runs_total',
  help: 'Level runs that finished, by role (L2.architect, …) and outcome (ok, failed).',
  labelNames: ['role', 'outcome'] as const,
  registers,
});
export const levelRetries = new Counter({
  name: 'keel_level_retries_total',
  help: 'Level runs that were a retry (attempt 2 or later), by role.',
  labelNames: ['role'] as const,
  registers,
});

export const eventAppendSeconds = new Histogram({
  name: 'keel_event_append_duration_seconds',
  help: 'Time to store one job event and publish it to its live channel.',
  buckets: SECONDS,
  registers,
});
export const streamLagSeconds = new Histogram({
  name: 'keel_stream_lag_seconds',
  help: 'Time from an event occurring (occurred_at) to the API writing it to an SSE client.',
  buckets: SECONDS,
  registers,
});

export const llmCalls = new Counter({
  name: 'keel_llm_calls_total',
  help: 'Calls to model providers, by provider, catalog model and outcome (ok, or the reason it did not answer).',
  labelNames: ['provider', 'model', 'outcome'] as const,
  registers,
});
export const llmCallSeconds = new Histogram({
  name: 'keel_llm_call_duration_seconds',
  help: 'Latency of provider calls, answered or not.',
  labelNames: ['provider', 'model'] as const,
  buckets: SECONDS,
  registers,
});
export const llmTokens = new Counter({
  name: 'keel_llm_tokens_total',
  help: 'Tokens of answered calls, by provider, model and kind (input, output; cached_input: the part of input read from the vendor prompt cache).',
  labelNames: ['provider', 'model', 'kind'] as const,
  registers,
});
export const llmPromptEstimate = new Counter({
  name: 'keel_llm_prompt_tokens_estimated_total',
  help: 'Input tokens of answered calls as Keel estimated them before the call; against keel_llm_tokens_total{kind="input"} it shows how conservative the estimate is.',
  labelNames: ['provider', 'model'] as const,
  registers,
});
export const llmCostUsd = new Counter({
  name: 'keel_llm_cost_usd_total',
  help: 'Cost of answered calls in US dollars at the catalog price.',
  labelNames: ['provider', 'model'] as const,
  registers,
});
export const llmFallbacks = new Counter({
  name: 'keel_llm_fallbacks_total',
  help: 'Walks that moved on from a candidate to the next, by the reason the candidate was passed over.',
  labelNames: ['reason'] as const,
  registers,
});
export const freeQuota = new Counter({
  name: 'keel_free_quota_total',
  help: "Free-tier quota reservations, by provider and outcome (granted, or denied with the window's dimension).",
  labelNames: ['provider', 'outcome'] as const,
  registers,
});

export const connectorRuns = new Counter({
  name: 'keel_connector_runs_total',
  help: 'Connector runs, by connector (notion, slack, github) and outcome (ok, failed).',
  labelNames: ['connector', 'outcome'] as const,
  registers,
});
export const connectorRecords = new Counter({
  name: 'keel_connector_records_total',
  help: 'Records a connector run wrote into the knowledge hub, by connector.',
  labelNames: ['connector'] as const,
  registers,
});

// Fair scheduling (docs/scheduling.md). `org` is a label here, unlike ids elsewhere: orgs are the tenants an operator
// watches the queue of, a set as bounded as the deployment's customers.
export const jobQueueDepth = new Gauge({
  name: 'keel_job_queue_depth',
  help: 'Jobs waiting for a slot, by org (set by the API at each slot sweep).',
  labelNames: ['org'] as const,
  registers,
});
export const jobSlotsRunning = new Gauge({
  name: 'keel_job_slots_running',
  help: 'Jobs holding a slot, by org (set by the API at each slot sweep).',
  labelNames: ['org'] as const,
  registers,
});
export const jobQueueWaitSeconds = new Histogram({
  name: 'keel_job_queue_wait_seconds',
  help: 'Time a job waited for its slot, from its claim to its grant, by org (observed by the worker that saw the grant).',
  labelNames: ['org'] as const,
  buckets: [0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 1800, 3600],
  registers,
});
