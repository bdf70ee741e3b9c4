import Anthropic from '@anthropic-ai/sdk';
import { parseToolArguments } from '../../pure/tool-arguments';
import { classifyHttpFailure } from './classify';
import { STREAM_STALL_MS, streamFailure, watchForStall } from './stall-watch';
import type { AdapterRequest } from './types';

/**
 * The Messages wire streamed (`stream: true`): `text_delta`, `thinking_delta` and `input_json_delta` pieces go to
 * `request.onPiece` as they arrive, and the answer comes back as the whole message the stream built (input usage from
 * `message_start`, output usage from the last `message_delta`), so the caller reads it exactly as an unstreamed one.
 * A failure after the 200 (an `error` event, a lost connection, a stall) is classified like a failed request.
 */
export async function streamVendorA(
  client: Anthropic,
  body: Anthropic.MessageCreateParamsNonStreaming,
  request: AdapterRequest,
): Promise<Anthropic.Message> {
  const onPiece = request.onPiece!;
  const stallMs = request.stallMs ?? STREAM_STALL_MS;
  const watch = watchForStall(request.signal, stallMs);
  const label = `${request.providerName}/${request.model.model}`;
  let model = '';
  let usage = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  // Blocks by their stream index; tool calls numbered in order of appearance, as the reply lists them.
  const blocks = new Map<number, Block>();
  let toolCalls = 0;
  try {
    const stream = await client.messages.create({ ...body, stream: true }, { signal: watch.signal });
    for await (const event of stream) {
      watch.touch();
      switch (event.type) {
        case 'message_start':
          model = event.message.model;
          usage = {
            input_tokens: event.message.usage.input_tokens,
            output_tokens: event.message.usage.output_tokens,
            cache_read_input_tokens: event.message.usage.cache_read_input_tokens ?? 0,
            cache_creation_input_tokens: event.message.usage.cache_creation_input_tokens ?? 0,
          };
          break;
        case 'message_delta':
          usage = { ...usage, output_tokens: event.usage.output_tokens };
          break;
        case 'content_block_start': {
          const start = event.content_block;
          if (start.type === 'text') blocks.set(event.index, { type: 'text', text: '' });
          else if (start.type === 'thinking') blocks.set(event.index, { type: 'thinking', thinking: '' });
          else if (start.type === 'redacted_thinking') blocks.set(event.index, { type: 'redacted_thinking' });
          else if (start.type === 'tool_use') {
            const block: Block = { type: 'tool_use', id: start.id, name: start.name, json: '', call: toolCalls++ };
            blocks.set(event.index, block);
            onPiece({ kind: 'tool_arguments', text: '', toolCallIndex: block.call, toolName: start.name });
          }
          break;
        }
        case 'content_block_delta': {
          const block = blocks.get(event.index);
          const delta = event.delta;
          if (delta.type === 'text_delta' && block?.type === 'text') {
            block.text += delta.text;
            onPiece({ kind: 'text', text: delta.text });
          } else if (delta.type === 'thinking_delta' && block?.type === 'thinking') {
            block.thinking += delta.thinking;
            onPiece({ kind: 'reasoning', text: delta.thinking });
          } else if (delta.type === 'input_json_delta' && block?.type === 'tool_use') {
            block.json += delta.partial_json;
            onPiece({ kind: 'tool_arguments', text: delta.partial_json, toolCallIndex: block.call });
          }
          break;
        }
        default:
          break;
      }
    }
    if (watch.signal.aborted) throw watch.signal.reason;
  } catch (err) {
    throw streamFailure(watch, midStreamFailure(err, label), { wire: 'vendor_a', request, stallMs });
  } finally {
    watch.stop();
  }
  const content = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => toContentBlock(block));
  return { model, content, usage } as unknown as Anthropic.Message;
}

type Block =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string }
  | { type: 'redacted_thinking' }
  | { type: 'tool_use'; id: string; name: string; json: string; call: number };

function toContentBlock(block: Block): unknown {
  switch (block.type) {
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: parseToolArguments(block.json || '{}') };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: '' };
    default:
      return block;
  }
}

/** Anthropic's error types, as the HTTP statuses they come with when the failure is not mid-stream. */
const STATUS_OF_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/**
 * A stream that fails after its 200 sends an `error` event, which the client throws with no HTTP status; the status is
 * read from the error's type, so a `rate_limit_error` mid-stream is the 429 it would have been.
 */
function midStreamFailure(err: unknown, label: string): unknown {
  if (!(err instanceof Anthropic.APIError) || typeof err.status === 'number') return err;
  const body = (err.error ?? {}) as { error?: { type?: unknown } };
  const status = STATUS_OF_TYPE[String(body.error?.type)] ?? 500;
  return classifyHttpFailure('vendor_a', { status, body }, `${label} mid-stream`);
}
