import { z } from 'zod';
import { startScriptedServer } from './scripted-server';
import type { CannedReply, ScriptedServer } from './scripted-server';

// Parts are strict: the real API answers unknown fields with "Invalid JSON payload received. Unknown name".
const partSchema = z.union([
  z.strictObject({ text: z.string(), thought: z.boolean().optional(), thoughtSignature: z.string().optional() }),
  z.strictObject({
    functionCall: z.strictObject({
      name: z.string().min(1),
      args: z.record(z.string(), z.unknown()).optional(),
      id: z.string().optional(),
    }),
    thoughtSignature: z.string().optional(),
  }),
  z.strictObject({
    functionResponse: z.strictObject({
      name: z.string().min(1),
      response: z.record(z.string(), z.unknown()),
      id: z.string().optional(),
    }),
  }),
]);

const contentSchema = z.object({ role: z.enum(['user', 'model']), parts: z.array(partSchema).min(1) });

const functionDeclarationSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  parametersJsonSchema: z.record(z.string(), z.unknown()).optional(),
});

type Content = z.infer<typeof contentSchema>;

const count = (content: Content | undefined, key: 'functionCall' | 'functionResponse'): number =>
  content?.parts.filter((part) => key in part).length ?? 0;

/** POST /v1beta/models/{model}:generateContent as Google documents it, with the API's function-turn rule. */
export const generateContentRequestSchema = z
  .looseObject({
    contents: z.array(contentSchema).min(1),
    systemInstruction: z
      .object({ role: z.string().optional(), parts: z.array(z.strictObject({ text: z.string() })).min(1) })
      .optional(),
    tools: z.array(z.looseObject({ functionDeclarations: z.array(functionDeclarationSchema).optional() })).optional(),
    generationConfig: z
      .looseObject({
        thinkingConfig: z
          .strictObject({
            thinkingBudget: z.number().int().optional(),
            thinkingLevel: z.string().optional(),
            includeThoughts: z.boolean().optional(),
          })
          .optional(),
      })
      .optional(),
  })
  .superRefine((body, ctx) => {
    body.contents.forEach((content, index) => {
      const responses = count(content, 'functionResponse');
      if (responses === 0) return;
      const calls = count(body.contents[index - 1], 'functionCall');
      if (calls !== responses) {
        ctx.addIssue({
          code: 'custom',
          path: ['contents', index],
          message:
            'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
        });
      }
    });
  });
export type GenerateContentRequest = z.infer<typeof generateContentRequestSchema>;

export interface FakeGemini extends ScriptedServer<GenerateContentRequest> {
  /** The API origin, as the catalog's vendor_b `base_url` is (the client appends `/v1beta/models/...`). */
  baseUrl: string;
}

/** A loopback server on the Gemini generateContent wire (Google AI Studio, API version v1beta). */
export async function startFakeGemini(): Promise<FakeGemini> {
  const server = await startScriptedServer({
    // Fastify reads `:` as a parameter marker, so the `{model}:generateContent` segment is matched whole.
    route: '/v1beta/models/*',
    schema: generateContentRequestSchema,
    invalidRequest: (message) =>
      geminiReplies.error(400, googleErrorBody(400, `Invalid JSON payload received. ${message}`, 'INVALID_ARGUMENT')),
    unscripted: () => geminiReplies.error(500, geminiErrors.internal()),
    // A whole response scripted for streamGenerateContent goes out as the API streams it.
    streamed: (_body, canned, url) =>
      url.includes(':streamGenerateContent') && canned.status === 200
        ? streamedResponse(canned.body as StreamedResponse)
        : undefined,
  });
  return Object.assign(server, { baseUrl: server.origin });
}

export type ResponsePart =
  { text: string; thought?: boolean } | { functionCall: { name: string; args: Record<string, unknown> } };

interface ResponseOptions {
  modelVersion?: string;
  usage?: { promptTokenCount?: number; candidatesTokenCount?: number; thoughtsTokenCount?: number };
}

interface StreamedResponse {
  candidates: Array<{ content: { parts: ResponsePart[] } }>;
  usageMetadata: Record<string, unknown> & { promptTokenCount: number };
  modelVersion: string;
}

/**
 * streamGenerateContent (`alt=sse`) of a whole response: text and thoughts in pieces, one response each, a function
 * call whole (the wire sends calls whole), the finish reason and the full usage in the last; `then` breaks it off after
 * `cut` chunks with an error chunk (`{ error }`) or silence.
 */
function streamedResponse(whole: StreamedResponse, then?: { error: unknown } | 'stall', cut = 2): CannedReply {
  const chunk = (part: ResponsePart, last: boolean) =>
    JSON.stringify({
      candidates: [{ content: { parts: [part], role: 'model' }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
      usageMetadata: last ? whole.usageMetadata : { promptTokenCount: whole.usageMetadata.promptTokenCount },
      modelVersion: whole.modelVersion,
      responseId: 'mcZLaJ7nKeOhz7IPh4mN0Ac',
    });
  const parts = whole.candidates[0]!.content.parts.flatMap((part): ResponsePart[] =>
    'text' in part ? (part.text.match(/[\s\S]{1,12}/g) ?? []).map((text) => ({ ...part, text })) : [part],
  );
  const frames = parts.map((part, index) => chunk(part, index === parts.length - 1));
  if (!then) return { status: 200, body: null, stream: { frames } };
  const kept = frames.slice(0, cut);
  if (then === 'stall') return { status: 200, body: null, stream: { frames: kept, then: 'stall' } };
  kept.push(JSON.stringify(then.error));
  return { status: 200, body: null, stream: { frames: kept } };
}

function response(parts: ResponsePart[], options: ResponseOptions): unknown {
  const prompt = options.usage?.promptTokenCount ?? 14;
  const candidates = options.usage?.candidatesTokenCount ?? 6;
  const thoughts = options.usage?.thoughtsTokenCount;
  return {
    candidates: [{ content: { parts, role: 'model' }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: prompt,
      candidatesTokenCount: candidates,
      totalTokenCount: prompt + candidates + (thoughts ?? 0),
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
      // The API omits the field when the model did not think.
      ...(thoughts === undefined ? {} : { thoughtsTokenCount: thoughts }),
    },
    modelVersion: options.modelVersion ?? 'gemini-2.5-flash',
    responseId: 'mcZLaJ7nKeOhz7IPh4mN0Ac',
  };
}

/** Canned generateContent answers in Google's response JSON. */
export const geminiReplies = {
  text(text: string, options: ResponseOptions = {}): CannedReply {
    return { status: 200, body: response([{ text }], options) };
  },
  parts(parts: ResponsePart[], options: ResponseOptions = {}): CannedReply {
    return { status: 200, body: response(parts, options) };
  },
  /** A streamed answer of these parts broken off after `cut` chunks by an error chunk (an error body) or silence. */
  brokenStream(parts: ResponsePart[], then: { error: unknown } | 'stall', cut = 2): CannedReply {
    return streamedResponse(response(parts, {}) as StreamedResponse, then, cut);
  },
  error(status: number, body: unknown, headers?: Record<string, string>): CannedReply {
    return { status, body, headers };
  },
};

function googleErrorBody(code: number, message: string, status: string, details?: unknown[]) {
  return { error: { code, message, status, ...(details ? { details } : {}) } };
}

const quotaHelp = {
  '@type': 'type.googleapis.com/google.rpc.Help',
  links: [
    { description: 'Learn more about Gemini API quotas', url: 'https://ai.google.dev/gemini-api/docs/rate-limits' },
  ],
};

/** Google's error envelopes for the conditions the walk tells apart, as the Gemini API sends them. */
export const geminiErrors = {
  /** HTTP 429: the project's free tier has a zero limit for this model (billing not enabled); the limit is in the message. */
  zeroFreeTierLimit: (model: string) =>
    googleErrorBody(
      429,
      `You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. To monitor your current usage, head to: https://ai.dev/usage?tab=rate-limit. \n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_input_token_count, limit: 0, model: ${model}\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: ${model}\nPlease retry in 36.207812416s.`,
      'RESOURCE_EXHAUSTED',
      [
        {
          '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
          violations: [
            {
              quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_input_token_count',
              quotaId: 'GenerateContentInputTokensPerModelPerMinute-FreeTier',
              quotaDimensions: { location: 'global', model },
            },
            {
              quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
              quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier',
              quotaDimensions: { location: 'global', model },
            },
          ],
        },
        quotaHelp,
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '36s' },
      ],
    ),
  /** HTTP 429: the same condition where the violation carries `quotaValue` and the message does not say the limit. */
  zeroQuotaValue: (model: string) =>
    googleErrorBody(
      429,
      'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.',
      'RESOURCE_EXHAUSTED',
      [
        {
          '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
          violations: [
            {
              quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
              quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier',
              quotaDimensions: { location: 'global', model },
              quotaValue: '0',
            },
          ],
        },
        quotaHelp,
      ],
    ),
  /** HTTP 429: a per-minute limit that is not zero; the retry hint is in RetryInfo, not a header. */
  rateLimited: (model: string, retryDelay = '12s') =>
    googleErrorBody(
      429,
      `You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. To monitor your current usage, head to: https://ai.dev/usage?tab=rate-limit. \n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 10, model: ${model}\nPlease retry in 11.84s.`,
      'RESOURCE_EXHAUSTED',
      [
        {
          '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
          violations: [
            {
              quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
              quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier',
              quotaDimensions: { location: 'global', model },
              quotaValue: '10',
            },
          ],
        },
        quotaHelp,
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay },
      ],
    ),
  /** HTTP 400: no free tier where the project is, and billing is off. */
  freeTierUnavailable: () =>
    googleErrorBody(
      400,
      'Gemini API free tier is not available in your country. Please enable billing on your project in Google AI Studio.',
      'FAILED_PRECONDITION',
    ),
  /** HTTP 400: Google answers a bad key with INVALID_ARGUMENT, not 401; the reason is in ErrorInfo. */
  apiKeyInvalid: () =>
    googleErrorBody(400, 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT', [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'API_KEY_INVALID',
        domain: 'googleapis.com',
        metadata: { service: 'generativelanguage.googleapis.com' },
      },
      {
        '@type': 'type.googleapis.com/google.rpc.LocalizedMessage',
        locale: 'en-US',
        message: 'API key not valid. Please pass a valid API key.',
      },
    ]),
  /** HTTP 401. */
  unauthenticated: () =>
    googleErrorBody(
      401,
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
      'UNAUTHENTICATED',
      [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'ACCESS_TOKEN_TYPE_UNSUPPORTED',
          domain: 'googleapis.com',
        },
      ],
    ),
  /** HTTP 403. */
  permissionDenied: () =>
    googleErrorBody(403, 'Your API key was reported as leaked. Please use another API key.', 'PERMISSION_DENIED'),
  /** HTTP 400: an ordinary malformed request. */
  invalidArgument: (message: string) => googleErrorBody(400, message, 'INVALID_ARGUMENT'),
  /** HTTP 404. */
  modelNotFound: (model: string) =>
    googleErrorBody(
      404,
      `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`,
      'NOT_FOUND',
    ),
  /** HTTP 500. */
  internal: () =>
    googleErrorBody(
      500,
      'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
      'INTERNAL',
    ),
  /** HTTP 503. */
  overloaded: () => googleErrorBody(503, 'The model is overloaded. Please try again later.', 'UNAVAILABLE'),
};
