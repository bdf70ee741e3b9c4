import { TelemetryEmbedRequestSchema } from '../../kb/embedders/telemetry';
import { offlineEmbed } from '../../kb/embedders/offline';
import { startScriptedServer, type CannedReply, type ScriptedServer } from './scripted-server';

/**
 * The telemetry service's `POST /v1/kb/embed` on loopback, answering from a script. Its vectors come from the
 * offline embedder (any deterministic vectors would do: the point is the wire, not the model).
 */
export function startFakeTelemetry(): Promise<ScriptedServer<unknown>> {
  return startScriptedServer({
    route: '/v1/kb/embed',
    schema: TelemetryEmbedRequestSchema,
    invalidRequest: (message) => ({ status: 400, body: { error: { code: 'invalid_request', message } } }),
    unscripted: () => ({ status: 500, body: { error: { code: 'internal', message: 'unscripted request' } } }),
  });
}

/** A successful answer for these inputs, as the telemetry service gives it. */
export function embedded(input: string[], model = 'text-embedding-3-small'): CannedReply {
  return { status: 200, body: { model, dimensions: 256, embeddings: input.map((text) => offlineEmbed(text)) } };
}
