import type { LiveDelta } from '../../../../events/live-deltas';

/**
 * What the job page shows of a level run's live model output (docs/live-output.md): per level run, the newest call's
 * text, reasoning and tool-call arguments, put together from deltas. Pure: the stream hands deltas in, the page reads
 * the views out; nothing here renders.
 */

/** Each part keeps its newest characters only: a long file streaming for minutes must not grow the tab's memory. */
export const LIVE_PART_MAX_CHARS = 64 * 1024;
/** The start of a tool call's arguments is kept apart from the bounded tail: it names the file being written. */
const HEAD_CHARS = 512;

/** One part of an attempt's output: the text, the reasoning, or one tool call's arguments. */
export interface LivePart {
  /** The part's offset of `text[0]`: above 0 when older characters were dropped to stay bounded (or never seen). */
  start: number;
  /** The newest characters, at most LIVE_PART_MAX_CHARS. */
  text: string;
  /** The part's first characters (tool arguments only), kept whatever the bound drops. */
  head: string;
  toolName?: string;
}

export interface LiveCall {
  callId: string;
  attempt: string;
  text?: LivePart;
  reasoning?: LivePart;
  /** By tool call index. */
  tools: ReadonlyMap<number, LivePart>;
  /** The call answered (`end`): its durable events carry the result. */
  ended: boolean;
  /** An earlier attempt of this call failed over and its partial output was dropped (`discard`). */
  discarded: boolean;
  model?: string;
}

export interface LevelLive {
  levelId: string;
  /** The call shown: the newest one of the level run to stream. */
  call: LiveCall;
}

export type LiveState = ReadonlyMap<string, LevelLive>;

/** Where the part's characters end: a delta starting here is the next piece. */
export function partEnd(part: LivePart): number {
  return part.start + part.text.length;
}

/**
 * Adds a piece at `offset` to a part: what the part already has is skipped (a buffer replayed on reconnect repeats
 * what the live stream already gave), a gap (pieces the client never got: a buffer already trimmed) starts the part
 * over from the piece, and the part keeps its newest LIVE_PART_MAX_CHARS.
 */
export function appendPiece(part: LivePart | undefined, offset: number, piece: string, keepHead = false): LivePart {
  const have = part ?? { start: offset, text: '', head: '' };
  const end = partEnd(have);
  let next: LivePart;
  if (offset + piece.length <= end) return have;
  if (offset > end) next = { ...have, start: offset, text: piece, head: offset === 0 ? piece : have.head };
  else next = { ...have, text: have.text + piece.slice(end - offset) };
  if (keepHead && next.head.length < HEAD_CHARS && next.start === 0) next.head = next.text.slice(0, HEAD_CHARS);
  if (next.text.length > LIVE_PART_MAX_CHARS) {
    const drop = next.text.length - LIVE_PART_MAX_CHARS;
    next = { ...next, start: next.start + drop, text: next.text.slice(drop) };
  }
  return next;
}

function emptyCall(delta: LiveDelta, discarded: boolean): LiveCall {
  return {
    callId: delta.call_id,
    attempt: delta.attempt,
    tools: new Map(),
    ended: false,
    discarded,
    model: delta.model,
  };
}

/**
 * Applies deltas in order and returns the new state; a level run untouched keeps its object, so a view of one level
 * re-renders only when its own output changed. `finished` names level runs whose `level_finished` arrived: their
 * deltas (a late replay) are ignored. `dropped` remembers the attempts discarded (`<call> <attempt>`), so a replayed
 * piece of one never shows again.
 */
export function applyDeltas(
  state: LiveState,
  deltas: readonly LiveDelta[],
  finished: ReadonlySet<string>,
  dropped: Set<string>,
): LiveState {
  if (deltas.length === 0) return state;
  const next = new Map(state);
  for (const delta of deltas) {
    if (finished.has(delta.level_id) || dropped.has(`${delta.call_id} ${delta.attempt}`)) continue;
    const level = next.get(delta.level_id);
    let call = level?.call;
    if (delta.kind === 'discard') {
      dropped.add(`${delta.call_id} ${delta.attempt}`);
      if (call && call.callId === delta.call_id) {
        next.set(delta.level_id, { levelId: delta.level_id, call: { ...emptyCall(delta, true), attempt: '' } });
      }
      continue;
    }
    // Another call of the level run (the next tool-loop turn), or another attempt of this one, replaces what shows.
    if (!call || call.callId !== delta.call_id || call.attempt !== delta.attempt) {
      call = emptyCall(delta, call?.callId === delta.call_id && call.discarded);
    }
    switch (delta.kind) {
      case 'end':
        call = { ...call, ended: true };
        break;
      case 'text':
        call = { ...call, text: appendPiece(call.text, delta.offset, delta.text) };
        break;
      case 'reasoning':
        call = { ...call, reasoning: appendPiece(call.reasoning, delta.offset, delta.text) };
        break;
      case 'tool_arguments': {
        const index = delta.tool_call_index ?? 0;
        const tools = new Map(call.tools);
        const part = appendPiece(tools.get(index), delta.offset, delta.text, true);
        tools.set(index, delta.tool_name ? { ...part, toolName: delta.tool_name } : part);
        call = { ...call, tools };
        break;
      }
    }
    next.set(delta.level_id, { levelId: delta.level_id, call });
  }
  return next;
}

/** The state without the level runs that ended (their durable result replaces the live output). */
export function dropLevels(state: LiveState, levelIds: Iterable<string>): LiveState {
  let next: Map<string, LevelLive> | undefined;
  for (const id of levelIds) {
    if (!state.has(id)) continue;
    next ??= new Map(state);
    next.delete(id);
  }
  return next ?? state;
}

/**
 * The level runs whose model call is streaming now (a call begun and not answered, or failed over and on its way
 * again), sorted: what the run graph marks as streaming.
 */
export function streamingLevels(state: LiveState): string[] {
  return [...state.values()]
    .filter((level) => !level.call.ended)
    .map((level) => level.levelId)
    .sort();
}

export interface FileBeingWritten {
  path?: string;
  /** The content so far, decoded; from the part's kept tail when older characters were dropped. */
  content: string;
  /** Older characters of the content are not shown (the part's bound). */
  clipped: boolean;
}

/**
 * The file a `write_file` call is writing, read from its arguments while they are still an unfinished JSON object
 * (`{"path":"notes.md","content":"# Notes\n…`): the path once it is whole, the content so far.
 */
export function fileBeingWritten(part: LivePart): FileBeingWritten {
  const pathMatch = /"path"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(part.head || part.text);
  const path = pathMatch ? decodeFragment(pathMatch[1]!) : undefined;
  if (part.start === 0) {
    const contentMatch = /"content"\s*:\s*"((?:[^"\\]|\\.)*)/.exec(part.text);
    return { path, content: contentMatch ? decodeFragment(contentMatch[1]!) : '', clipped: false };
  }
  // The kept tail starts inside the content: decode it as a piece of a JSON string, cut before its closing quote.
  const close = /(?<!\\)"\s*(,|\})/.exec(part.text);
  return { path, content: decodeFragment(close ? part.text.slice(0, close.index) : part.text), clipped: true };
}

/** A piece of a JSON string's body, decoded; an escape cut off at the end (`\`, `\u00`) is left out. */
function decodeFragment(body: string): string {
  const whole = body.replace(/\\(u[0-9a-fA-F]{0,3})?$/, '');
  try {
    return JSON.parse(`"${whole}"`) as string;
  } catch {
    // A tail that starts in the middle of an escape: show it as it came rather than nothing.
    return whole.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
  }
}

/** A short, stable sentence for screen readers: what the level run is doing, never the text itself. */
export function liveStatus(role: string, call: LiveCall): string {
  if (call.ended) return `${role} answered`;
  const tool = [...call.tools.values()].at(-1);
  if (tool) {
    const file = tool.toolName === 'write_file' ? fileBeingWritten(tool).path : undefined;
    return file ? `${role} is writing ${file}` : `${role} is calling ${tool.toolName ?? 'a tool'}`;
  }
  if (call.text) return `${role} is answering`;
  if (call.reasoning) return `${role} is thinking`;
  return call.discarded ? `${role} is retrying on another model` : `${role} is starting`;
}
