import type * as GenAI from '@google/genai' with { 'resolution-mode': 'import' };
import { STREAM_STALL_MS, streamFailure, watchForStall } from './stall-watch';
import type { AdapterRequest } from './types';

/**
 * The Gemini wire streamed (`streamGenerateContent`, SSE): text and thought parts go to `request.onPiece` as they
 * arrive, a function call (which the wire sends whole) as one piece of arguments, and the answer comes back as the
 * one response the chunks make (their parts in order, the last chunk's usage and model version), so the caller reads
 * it exactly as an unstreamed one. An error chunk mid-stream carries its HTTP code, which the client throws as the
 * status; a stall fails as unavailable.
 */
export async function streamVendorB(
  client: GenAI.GoogleGenAI,
  params: (abortSignal: AbortSignal) => GenAI.GenerateContentParameters,
  request: AdapterRequest,
): Promise<GenAI.GenerateContentResponse> {
  const onPiece = request.onPiece!;
  const stallMs = request.stallMs ?? STREAM_STALL_MS;
  const watch = watchForStall(request.signal, stallMs);
  const parts: GenAI.Part[] = [];
  let last: GenAI.GenerateContentResponse | undefined;
  let calls = 0;
  try {
    const stream = await client.models.generateContentStream(params(watch.signal));
    for await (const chunk of stream) {
      watch.touch();
      last = chunk;
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        if (part.functionCall) {
          onPiece({
            kind: 'tool_arguments',
            text: JSON.stringify(part.functionCall.args ?? {}),
            toolCallIndex: calls++,
            toolName: part.functionCall.name ?? '',
          });
          parts.push(part);
        } else if (typeof part.text === 'string') {
          if (part.text) onPiece({ kind: part.thought ? 'reasoning' : 'text', text: part.text });
          // Consecutive pieces of one kind make one part, as the unstreamed response has it.
          const previous = parts.at(-1);
          if (previous && typeof previous.text === 'string' && Boolean(previous.thought) === Boolean(part.thought)) {
            previous.text += part.text;
          } else parts.push({ ...part });
        }
      }
    }
    if (watch.signal.aborted) throw watch.signal.reason;
  } catch (err) {
    throw streamFailure(watch, err, { wire: 'vendor_b', request, stallMs });
  } finally {
    watch.stop();
  }
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0 }],
    usageMetadata: last?.usageMetadata,
    modelVersion: last?.modelVersion,
  } as GenAI.GenerateContentResponse;
}
