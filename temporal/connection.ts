import { Client, Connection } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { NativeConnection } from '@temporalio/worker';
import type { TemporalSettings } from './config';
import { KEEL_SEARCH_ATTRIBUTES } from '../pure/search-attributes';

/** gRPC ALREADY_EXISTS: another process registered the attributes first. */
const GRPC_ALREADY_EXISTS = 6;
/** temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD */
const INDEXED_VALUE_TYPE_KEYWORD = 2;

/**
 * gRPC's reconnect backoff grows to two minutes by default, so a client kept failing for over a minute after the server
 * came back; a request path needs to find it again within seconds.
 */
export const TEMPORAL_CHANNEL_ARGS = {
  'grpc.initial_reconnect_backoff_ms': 250,
  'grpc.max_reconnect_backoff_ms': 2_000,
};

/** One client per process: created at start, closed on shutdown. */
export async function connectClient(settings: TemporalSettings): Promise<{ client: Client; close(): Promise<void> }> {
  const connection = await Connection.connect({
    address: settings.address,
    tls: settings.tls,
    apiKey: settings.apiKey,
    metadata: settings.apiKey ? { 'temporal-namespace': settings.namespace } : undefined,
    channelArgs: TEMPORAL_CHANNEL_ARGS,
  });
  const client = new Client({ connection, namespace: settings.namespace, interceptors: clientInterceptors() });
  return { client, close: () => connection.close() };
}

/**
 * Starting or signalling a workflow opens a client span and hands its context to the workflow in headers, so a job's
 * trace continues from the request that started it. With tracing off the span is the API's no-op.
 */
export function clientInterceptors() {
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
}

/** The worker's connection (Rust core); close it in `finally` after the worker stops. */
export function connectWorker(settings: TemporalSettings): Promise<NativeConnection> {
  return NativeConnection.connect({
    address: settings.address,
    tls: settings.tls,
    apiKey: settings.apiKey,
    metadata: settings.apiKey ? { 'temporal-namespace': settings.namespace } : undefined,
  });
}

/**
 * Registers the Keel search attributes that the namespace lacks. Self-hosted servers accept this
 * through the operator API; Temporal Cloud refuses it (register them in the Cloud UI or with tcld),
 * which is reported as a warning rather than a failure.
 */
export async function ensureSearchAttributes(client: Client, namespace: string): Promise<string | undefined> {
  try {
    const existing = await client.connection.operatorService.listSearchAttributes({ namespace });
    const known = new Set(Object.keys(existing.customAttributes ?? {}));
    const missing = KEEL_SEARCH_ATTRIBUTES.filter((key) => !known.has(key.name));
    if (missing.length === 0) return undefined;
    await client.connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((key) => [key.name, INDEXED_VALUE_TYPE_KEYWORD])),
    });
    return undefined;
  } catch (err) {
    const code = (err as { code?: number }).code;
    if (code === GRPC_ALREADY_EXISTS) return undefined;
    return `could not register Keel search attributes in namespace ${namespace} (${(err as Error).message}); register ${KEEL_SEARCH_ATTRIBUTES.map((k) => k.name).join(', ')} as Keyword`;
  }
}
