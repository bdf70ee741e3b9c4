import { z } from 'zod';
import { offlineEmbed } from '../../kb/embedders/offline';
import { startScriptedServer, type CannedReply, type ScriptedServer } from './scripted-server';

/** The request an OpenAI-compatible `/embeddings` endpoint accepts (the part Keel uses). */
const EmbeddingsRequestSchema = z.object({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.string()).min(1)]),
  encoding_format: z.enum(['float', 'base64']).optional(),
});

/** A local inference server's OpenAI-compatible `POST /v1/embeddings` on loopback (Ollama, llama.cpp, vLLM speak it). */
export function startFakeLocalEmbeddings(): Promise<ScriptedServer<z.infer<typeof EmbeddingsRequestSchema>>> {
  return startScriptedServer({
    route: '/v1/embeddings',
    schema: EmbeddingsRequestSchema,
    invalidRequest: (message) => ({ status: 400, body: { error: { message, type: 'invalid_request_error' } } }),
    unscripted: () => ({ status: 500, body: { error: { message: 'unscripted request', type: 'server_error' } } }),
  });
}

/** An OpenAI-style embeddings answer, listed out of order as the wire allows (each item carries its index). */
export function localEmbeddings(input: string[], model: string): CannedReply {
  const data = input.map((text, index) => ({ object: 'embedding', index, embedding: offlineEmbed(text) })).reverse();
  return {
    status: 200,
    body: { object: 'list', model, data, usage: { prompt_tokens: input.length, total_tokens: input.length } },
  };
}
