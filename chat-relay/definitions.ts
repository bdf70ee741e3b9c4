/** The team-chat relay's inputs, state and failure types, shared by the relay workflow, its activities and the API. */

/** Where a turn's replies go: the thread it came from. */
export interface ChatThreadRef {
  channel: string;
  threadTs: string;
}

/** How far the relay got; carried in heartbeats, activity results and continue-as-new. */
export interface ChatRelayState {
  /** The last event sequence whose posts are done. */
  after: number;
  /** The progress message, once posted; later levels update it in place. */
  progressTs?: string;
  /** The level the progress message shows. */
  level?: string;
}

export interface ChatRelayInput extends ChatThreadRef {
  jobId: string;
  state?: ChatRelayState;
}

export interface ChatRelaySlice extends ChatRelayState {
  /** The job's terminal event has been posted; nothing more will come. */
  done: boolean;
}

/** One message to post in a thread, or (with `updateTs`) the new content of one already there. */
export interface ChatDelivery extends ChatThreadRef {
  text: string;
  blocks?: Array<Record<string, unknown>>;
  updateTs?: string;
}

/** The relay workflow of a job: one per job, so a second start for the same job is refused by Temporal. */
export function chatRelayWorkflowId(jobId: string): string {
  return `chatapp-relay/${jobId}`;
}

/** The chat system refused a Web API call in a way retrying cannot fix; the failure names its error code. */
export const CHAT_REFUSED = 'ChatRefused';
/** This worker has no bot token; retried, since another worker of the queue may have one. */
export const CHAT_NOT_CONFIGURED = 'ChatNotConfigured';
