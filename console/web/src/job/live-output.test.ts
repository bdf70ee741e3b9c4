import { describe, expect, it } from '@jest/globals';
import type { LiveDelta } from '../../../../events/live-deltas';
import {
  LIVE_PART_MAX_CHARS,
  appendPiece,
  applyDeltas,
  dropLevels,
  fileBeingWritten,
  liveStatus,
  streamingLevels,
  type LiveState,
} from './live-output';

const LEVEL = 'job-1/L4.executor/1';
const CALL = `${LEVEL}#7`;

function d(kind: LiveDelta['kind'], offset: number, text: string, extra: Partial<LiveDelta> = {}): LiveDelta {
  return { job_id: 'job-1', level_id: LEVEL, call_id: CALL, attempt: '1.1', kind, offset, text, ...extra };
}

/** Applies deltas to a fresh state, as the stream does, and returns the level's call. */
function run(deltas: LiveDelta[], finished: Set<string> = new Set(), dropped: Set<string> = new Set()) {
  return applyDeltas(new Map(), deltas, finished, dropped).get(LEVEL)?.call;
}

describe('live output from deltas', () => {
  it('appends each piece at its offset and skips what a replayed buffer repeats', () => {
    const live = [d('text', 0, 'Durable '), d('text', 8, 'workflows ')];
    // A reconnect: the buffer replays the call from offset 0, overlapping what the live stream already gave.
    const replay = [d('text', 0, 'Durable workflows '), d('text', 8, 'workflows '), d('text', 18, 'survive.')];
    expect(run([...live, ...replay])?.text?.text).toBe('Durable workflows survive.');
    // A piece that overlaps the end adds only its new characters.
    expect(run([d('text', 0, 'abc'), d('text', 1, 'bcdef')])?.text?.text).toBe('abcdef');
  });

  it('keeps text, reasoning and each tool call apart', () => {
    const call = run([
      d('reasoning', 0, 'Plan: '),
      d('text', 0, 'Hi'),
      d('tool_arguments', 0, '{"path":"a.md"', { tool_call_index: 0, tool_name: 'write_file' }),
      d('tool_arguments', 0, '{"q":1}', { tool_call_index: 1, tool_name: 'search' }),
      d('reasoning', 6, 'write it.'),
    ]);
    expect(call?.reasoning?.text).toBe('Plan: write it.');
    expect(call?.text?.text).toBe('Hi');
    expect(call?.tools.get(0)).toMatchObject({ text: '{"path":"a.md"', toolName: 'write_file' });
    expect(call?.tools.get(1)).toMatchObject({ text: '{"q":1}', toolName: 'search' });
  });

  it('drops an attempt on discard, says so, and never shows a replayed piece of it again', () => {
    const dropped = new Set<string>();
    let state: LiveState = applyDeltas(new Map(), [d('text', 0, 'half an ans')], new Set(), dropped);
    state = applyDeltas(state, [d('discard', 0, '')], new Set(), dropped);
    expect(state.get(LEVEL)?.call.discarded).toBe(true);
    expect(state.get(LEVEL)?.call.text).toBeUndefined();
    // The buffer replayed on a reconnect still holds the failed attempt's pieces: they stay dropped.
    state = applyDeltas(state, [d('text', 0, 'half an ans')], new Set(), dropped);
    expect(state.get(LEVEL)?.call.text).toBeUndefined();
    // The next candidate's attempt shows, and the note that one failed over stays.
    state = applyDeltas(state, [d('text', 0, 'A whole answer', { attempt: '1.2' })], new Set(), dropped);
    expect(state.get(LEVEL)?.call).toMatchObject({ attempt: '1.2', discarded: true, text: { text: 'A whole answer' } });
  });

  it('replaces the output by a new attempt or the next call of the level run', () => {
    expect(run([d('text', 0, 'old'), d('text', 0, 'new', { attempt: '2.1' })])?.text?.text).toBe('new');
    const next = run([d('text', 0, 'turn one'), d('end', 0, ''), d('text', 0, 'turn two', { call_id: `${LEVEL}#9` })]);
    expect(next).toMatchObject({ callId: `${LEVEL}#9`, ended: false, text: { text: 'turn two' } });
  });

  it('marks the call answered on end, and ignores deltas of a level run that finished', () => {
    expect(run([d('text', 0, 'done'), d('end', 0, '')])).toMatchObject({ ended: true, text: { text: 'done' } });
    expect(run([d('text', 0, 'late replay')], new Set([LEVEL]))).toBeUndefined();
    const state = applyDeltas(new Map(), [d('text', 0, 'x')], new Set(), new Set());
    expect(dropLevels(state, [LEVEL]).has(LEVEL)).toBe(false);
    // Untouched state keeps its identity: nothing re-renders.
    expect(dropLevels(state, ['other'])).toBe(state);
    expect(applyDeltas(state, [], new Set(), new Set())).toBe(state);
  });

  it('keeps the newest LIVE_PART_MAX_CHARS of a part, and where it starts', () => {
    let part = appendPiece(undefined, 0, 'a'.repeat(LIVE_PART_MAX_CHARS));
    part = appendPiece(part, LIVE_PART_MAX_CHARS, 'bcd');
    expect(part.text.length).toBe(LIVE_PART_MAX_CHARS);
    expect(part.start).toBe(3);
    expect(part.text.endsWith('abcd')).toBe(true);
    // A piece already dropped by the bound is not added again.
    expect(appendPiece(part, 0, 'aaaa')).toBe(part);
  });

  it('starts a part over from a piece past a gap (a buffer trimmed before the client joined)', () => {
    const part = appendPiece(appendPiece(undefined, 0, 'abc'), 10, 'klm');
    expect(part).toMatchObject({ start: 10, text: 'klm' });
  });
});

describe('the file a write_file call is writing', () => {
  it('reads the path and the content so far from unfinished arguments', () => {
    const part = appendPiece(undefined, 0, '{"path":"notes.md","content":"# Notes\\n\\nDurable \\"work', true);
    expect(fileBeingWritten(part)).toEqual({ path: 'notes.md', content: '# Notes\n\nDurable "work', clipped: false });
    // An escape cut in two is left out until its rest arrives.
    const cut = appendPiece(undefined, 0, '{"path":"n.md","content":"a\\', true);
    expect(fileBeingWritten(cut).content).toBe('a');
    expect(fileBeingWritten(appendPiece(undefined, 0, '{"pa', true))).toEqual({ content: '', clipped: false });
  });

  it('keeps the path of a file longer than the bound, and shows the newest content', () => {
    let part = appendPiece(undefined, 0, '{"path":"big.md","content":"', true);
    part = appendPiece(part, partLength(part), 'x'.repeat(LIVE_PART_MAX_CHARS), true);
    part = appendPiece(part, partLength(part), 'tail\\n"}', true);
    const file = fileBeingWritten(part);
    expect(file.path).toBe('big.md');
    expect(file.clipped).toBe(true);
    expect(file.content.endsWith('xtail\n')).toBe(true);
  });

  it('names what the level run is doing for screen readers, never its text', () => {
    const writing = run([d('tool_arguments', 0, '{"path":"notes.md","content":"sec', { tool_name: 'write_file' })]);
    expect(liveStatus('L4.executor', writing!)).toBe('L4.executor is writing notes.md');
    expect(liveStatus('L4.executor', run([d('text', 0, 'secret words')])!)).toBe('L4.executor is answering');
    expect(liveStatus('L4.executor', run([d('reasoning', 0, 'hmm')])!)).toBe('L4.executor is thinking');
  });

  it('marks a level run streaming from its first delta until its call answers, and again at its next call', () => {
    const other = 'job-1/L2.manager/1';
    const dropped = new Set<string>();
    let state: LiveState = applyDeltas(
      new Map(),
      [d('text', 0, 'Plan'), d('text', 0, 'Go', { level_id: other, call_id: `${other}#1` })],
      new Set(),
      dropped,
    );
    expect(streamingLevels(state)).toEqual([LEVEL, other].sort());
    // The executor's call answered: its durable events follow, nothing streams for it until its next call.
    state = applyDeltas(state, [d('end', 0, '')], new Set(), dropped);
    expect(streamingLevels(state)).toEqual([other]);
    state = applyDeltas(state, [d('text', 0, 'Next', { call_id: `${LEVEL}#8` })], new Set(), dropped);
    expect(streamingLevels(state)).toEqual([LEVEL, other].sort());
    // A failed attempt's output is dropped, and the call is on its way again on another model: still streaming.
    state = applyDeltas(state, [d('discard', 0, '', { call_id: `${LEVEL}#8` })], new Set(), dropped);
    expect(streamingLevels(state)).toEqual([LEVEL, other].sort());
    expect(streamingLevels(dropLevels(state, [LEVEL, other]))).toEqual([]);
  });
});

function partLength(part: { start: number; text: string }): number {
  return part.start + part.text.length;
}
