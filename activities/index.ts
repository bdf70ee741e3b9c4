import type { Pool } from 'pg';
import type { ChatWebApi } from '../chat-relay/web-api';
import type { ConnectorsConfig } from '../connectors/settings';
import type { KnowledgeHub } from '../kb/hub';
import type { QueueStore } from '../queue/queue-store';
import type { ProductSettings } from '../products/settings';
import type { ModelRouter } from '../routing/router';
import type { SecretStore } from '../secrets/store';
import type { BlobStore } from '../snapshots/blob-store';
import { approvalActivities } from './approvals';
import { budgetActivities } from './budget';
import { capabilityActivities } from './capabilities';
import { chatActivities } from './chat';
import { connectorActivities } from './connectors';
import { eventActivities } from './events';
import { telling } from './told-events';
import { jobActivities } from './jobs';
import { jobSlotActivities } from './job-slots';
import { knowledgeActivities } from './knowledge';
import { mcpActivities } from './mcp';
import { modelActivities, type LiveOutputSettings } from './models';
import { productActivities } from './products';
import { scenarioActivities } from './scenarios';
import { snapshotActivities } from './snapshots';
import { webhookActivities } from './webhooks';
import { workspaceActivities } from './workspace';
import { workspaceReadActivities } from './workspace-read';
import { workspaceCommandActivities } from './workspace-commands';
import type { WebhookSettings } from '../webhooks/config';
import type { AnswerLinkSettings } from '../answer-links/config';
import type { PeopleDirectory } from '../approvals/escalation-people';

export interface ActivityDeps {
  pool: Pool;
  queue: QueueStore;
  models: ModelRouter;
  /** Per-job workspaces live under this directory (DATA_DIR/workspaces by default). */
  workspaceRoot: string;
  /** Where workspace snapshots keep file contents; absent → the folder `.blobs` in workspaceRoot. */
  blobs?: BlobStore;
  /** The knowledge hub `kb_search` reads; without one the tool says the hub is unavailable. */
  kb?: KnowledgeHub;
  /** The team-chat Web API, for relaying jobs to chat threads; absent when no bot token is configured. */
  chat?: ChatWebApi;
  /** The connectors' settings, parsed when the process started; absent → every default. */
  connectors?: ConnectorsConfig;
  /** Build limits, the Vercel API and its token's secret id; absent → defaults (api.vercel.com, VERCEL_TOKEN). */
  products?: ProductSettings;
  /** Where activities look credentials up by id at the moment of use; absent → a store that holds nothing. */
  secrets?: SecretStore;
  /** Model calls stream to the jobs' live channels unless this turns it off (docs/live-output.md). */
  liveOutput?: LiveOutputSettings;
  /** Webhook delivery: allowed hosts and the retry schedule; absent → production defaults, no allowed host. */
  webhooks?: WebhookSettings;
  /** Signs the `answer_url` of events that ask a person; absent → events carry none (docs/answer-links.md). */
  answerLinks?: AnswerLinkSettings;
  /** Who holds an identity role, for escalations (docs/reminders.md); absent → escalations name their target alone. */
  people?: PeopleDirectory;
  /** MCP client tools (docs/mcp.md): stdio servers start only where this allows them (local development). */
  mcp?: { allowStdio?: boolean };
}

/** Every activity Keel's workflows call, built over their dependencies (workflows proxy the type only). */
export function createActivities(deps: ActivityDeps) {
  const events = eventActivities(deps);
  const models = modelActivities(deps);
  const workspace = workspaceActivities(deps);
  return {
    ...events,
    ...approvalActivities(deps),
    ...scenarioActivities(),
    ...jobActivities(deps),
    ...jobSlotActivities(deps),
    ...models,
    ...budgetActivities(deps),
    ...workspace,
    ...workspaceReadActivities(deps),
    ...workspaceCommandActivities(deps),
    ...snapshotActivities(deps),
    ...chatActivities(deps),
    ...knowledgeActivities(deps),
    ...mcpActivities(deps),
    ...connectorActivities(deps),
    ...productActivities(deps),
    ...capabilityActivities(deps),
    ...webhookActivities(deps),
    // A lean level run hands the events it tells just before these to them (activities/told-events.ts).
    routeLevel: telling(events.appendEvents.bind(events), models.routeLevel.bind(models)),
    callModel: telling(events.appendEvents.bind(events), models.callModel.bind(models)),
    runWorkspaceTool: telling(events.appendEvents.bind(events), workspace.runWorkspaceTool.bind(workspace)),
  };
}

export type Activities = ReturnType<typeof createActivities>;
