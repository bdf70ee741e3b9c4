// The worker's workflow bundle entry: every workflow type Keel registers.
export { runJob } from './job';
export { runLevel } from './level';
export { deliverChatReply, relayChatTurn } from './chat-relay';
export { runConnector } from './connector-run';
export { runProductPrelude, runProductRelease } from './product-build';
export { runCapabilityRoadmap, runAcquisitionUnit } from './capability-roadmap';
export { runVerticalDiscovery } from './vertical-discovery';
export { runWorkItem } from './work-item';
export { collectWorkspaceBlobs } from './collect-blobs';
export { deliverWebhookEvent } from './webhook-delivery';
