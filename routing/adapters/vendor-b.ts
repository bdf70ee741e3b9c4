import { createHash } from 'node:crypto';
import type * as GenAI from '@google/genai' with { 'resolution-mode': 'import' };
import type { ChatMessage, ToolCall, ToolDefinition } from '../chat-types';
import { parseToolArguments } from '../../pure/tool-arguments';
import { classifyThrown } from './classify';
import { CALL_TIMEOUT_MS, clientCache } from './client-cache';
import { ProviderCallError } from './types';
import type { AdapterReply, AdapterRequest, WireAdapter } from './types';
import { streamVendorB } from './vendor-b-stream';

// @google/genai publishes its types as an ES module, which a CommonJS module reaches only through import().
let sdk: Promise<typeof GenAI> | undefined;
const loadSdk = (): Promise<typeof GenAI> => (sdk ??= import('@google/genai'));

const clientFor = clientCache(async (baseUrl, apiKey) => {
  const { GoogleGenAI } = await loadSdk();
  return new GoogleGenAI({
    // Pinned, so GOOGLE_GENAI_USE_VERTEXAI in the worker's env cannot send the call to Vertex AI.
    vertexai: false,
    // A key passed here also stops the client from reading GOOGLE_API_KEY / GEMINI_API_KEY.
    apiKey: apiKey ?? 'none',
    // The client appends the API version (v1beta) and `models/{model}:generateContent`. No `retryOptions`:
    // the client retries only when given them, and the walk owns retries.
    httpOptions: { baseUrl, timeout: CALL_TIMEOUT_MS },
  });
});

/** The Gemini generateContent wire. Keel's chat_compat messages are translated on the way out and back. */
export const vendorBAdapter: WireAdapter = {
  async call(request: AdapterRequest): Promise<AdapterReply> {
    const context = {
      wire: 'vendor_b' as const,
      providerName: request.providerName,
      model: request.model.model,
      signal: request.signal,
    };
    const system = request.messages
      .filter((message) => message.role === 'system' && message.content)
      .map((message) => ({ text: message.content ?? '' }));
    const contents = toGeminiContents(request.messages, context.providerName, context.model);

    const params = (abortSignal: AbortSignal | undefined): GenAI.GenerateContentParameters => ({
      model: request.model.model,
      contents,
      config: {
        ...(system.length > 0 ? { systemInstruction: { parts: system } } : {}),
        ...(request.tools?.length ? { tools: [{ functionDeclarations: request.tools.map(toDeclaration) }] } : {}),
        abortSignal,
        // The effort fragment is in the wire's own shape (`generationConfig.thinkingConfig`), so it is
        // deep-merged into the request body as given rather than mapped onto the client's config fields.
        ...(request.effortFragment ? { httpOptions: { extraBody: request.effortFragment } } : {}),
      },
    });
    if (request.onPiece) {
      const client = await clientFor(request.provider.base_url, request.apiKey);
      return fromGeminiResponse(await streamVendorB(client, params, request), request.model.model);
    }

    let response: GenAI.GenerateContentResponse;
    try {
      const client = await clientFor(request.provider.base_url, request.apiKey);
      response = await client.models.generateContent(params(request.signal));
    } catch (err) {
      throw classifyThrown(err, context);
    }
    return fromGeminiResponse(response, request.model.model);
  },
};

/**
 * User and assistant turns become `user` and `model` contents; tool calls become `functionCall` parts and
 * tool results `functionResponse` parts, named after the call they answer (the wire matches results to calls
 * by name and order, not id). Consecutive results share one user turn, as the API requires.
 */
function toGeminiContents(messages: ChatMessage[], providerName: string, model: string): GenAI.Content[] {
  const callNames = new Map<string, string>();
  const out: GenAI.Content[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        break;
      case 'user':
        if (message.content) out.push({ role: 'user', parts: [{ text: message.content }] });
        break;
      case 'assistant': {
        const parts: GenAI.Part[] = message.content ? [{ text: message.content }] : [];
        for (const call of message.tool_calls ?? []) {
          callNames.set(call.id, call.function.name);
          parts.push({ functionCall: { name: call.function.name, args: parseToolArguments(call.function.arguments) } });
        }
        // The API refuses a content without parts; a turn that said nothing carries nothing to keep.
        if (parts.length > 0) out.push({ role: 'model', parts });
        break;
      }
      case 'tool': {
        const name = callNames.get(message.tool_call_id ?? '');
        if (name === undefined) {
          throw new ProviderCallError(
            `${providerName}/${model}: tool result ${message.tool_call_id ?? '(no id)'} answers no earlier tool call`,
            'bad_request',
          );
        }
        // Google's convention: the function's result goes under `output`.
        const part: GenAI.Part = { functionResponse: { name, response: { output: message.content ?? '' } } };
        const previous = out.at(-1);
        if (previous?.role === 'user' && previous.parts?.every((p) => p.functionResponse !== undefined)) {
          previous.parts.push(part);
        } else {
          out.push({ role: 'user', parts: [part] });
        }
        break;
      }
    }
  }
  return out;
}

function toDeclaration(tool: ToolDefinition): GenAI.FunctionDeclaration {
  return {
    name: tool.function.name,
    ...(tool.function.description ? { description: tool.function.description } : {}),
    // Keel's parameters are JSON Schema; `parameters` takes only Google's OpenAPI subset and refuses
    // keywords such as `additionalProperties`, so they go in `parametersJsonSchema`.
    parametersJsonSchema: tool.function.parameters,
  };
}

function fromGeminiResponse(response: GenAI.GenerateContentResponse, requestedModel: string): AdapterReply {
  const parts = response.candidates?.[0]?.content?.parts ?? [];
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  const thoughts: string[] = [];
  for (const part of parts) {
    if (part.thought) {
      if (typeof part.text === 'string' && part.text) thoughts.push(part.text);
      continue;
    }
    if (part.functionCall) {
      const name = part.functionCall.name ?? '';
      const args = JSON.stringify(part.functionCall.args ?? {});
      toolCalls.push({
        id: callId(name, args, toolCalls.length),
        type: 'function',
        function: { name, arguments: args },
      });
    } else if (typeof part.text === 'string') {
      texts.push(part.text);
    }
  }
  const usage = response.usageMetadata;
  const reasoningTokens = usage?.thoughtsTokenCount ?? 0;
  return {
    model: response.modelVersion || requestedModel,
    content: texts.length > 0 ? texts.join('') : null,
    toolCalls,
    usage: {
      // promptTokenCount includes the cached part (cachedContentTokenCount), implicit or explicit caching alike.
      inputTokens: usage?.promptTokenCount ?? 0,
      cachedInputTokens: usage?.cachedContentTokenCount ?? 0,
      // Gemini counts thoughts apart from the candidates but bills both as output; the other wires' output
      // counts include reasoning, so this one does too.
      outputTokens: (usage?.candidatesTokenCount ?? 0) + reasoningTokens,
      reasoningTokens,
    },
    ...(thoughts.length > 0 ? { reasoning: thoughts.join('\n') } : {}),
  };
}

/** The wire gives calls no id; this one is stable for the same call, so a replayed turn gets the same ids. */
function callId(name: string, args: string, index: number): string {
  return `call_${createHash('sha256').update(`${name}\u0000${args}\u0000${index}`).digest('hex').slice(0, 16)}`;
}
