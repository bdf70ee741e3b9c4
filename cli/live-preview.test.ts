import type { LiveDelta } from '../events/live-deltas';
import { LivePreview } from './live-preview';

const base = { job_id: 'job-1', level_id: 'job-1/L4.executor/1', call_id: 'job-1/L4.executor/1#7', attempt: '1.1' };
const delta = (fields: Partial<LiveDelta> & Pick<LiveDelta, 'kind' | 'offset' | 'text'>): LiveDelta => ({
  ...base,
  ...fields,
});

test('shows the tail of the file a tool call is writing, unescaped, under the level and the path', () => {
  const preview = new LivePreview();
  const args = JSON.stringify({ path: 'notes.md', content: '# Notes\n\nOne.\nTwo.\nThree.\nFour.' });
  preview.apply(delta({ kind: 'tool_arguments', offset: 0, text: '', tool_call_index: 0, tool_name: 'write_file' }));
  preview.apply(delta({ kind: 'tool_arguments', offset: 0, text: args.slice(0, 30), tool_call_index: 0 }));
  preview.apply(delta({ kind: 'tool_arguments', offset: 30, text: args.slice(30), tool_call_index: 0 }));

  expect(preview.lines(80)).toEqual(['L4.executor write_file notes.md', '  │ Two.', '  │ Three.', '  │ Four.']);
});

test('takes a replayed piece once, drops a discarded attempt, and shows nothing once the call ends', () => {
  const preview = new LivePreview();
  preview.apply(delta({ kind: 'text', offset: 0, text: 'Half an ' }));
  preview.apply(delta({ kind: 'text', offset: 0, text: 'Half an ' }));
  preview.apply(delta({ kind: 'text', offset: 8, text: 'answer' }));
  expect(preview.lines(80)).toEqual(['L4.executor writing', '  │ Half an answer']);

  preview.apply(delta({ kind: 'discard', offset: 0, text: '' }));
  expect(preview.lines(80)).toEqual([]);
  preview.apply(delta({ kind: 'text', offset: 0, text: 'Another try', attempt: '1.2' }));
  expect(preview.lines(80)).toEqual(['L4.executor writing', '  │ Another try']);

  preview.apply(delta({ kind: 'end', offset: 0, text: '', attempt: '1.2' }));
  expect(preview.lines(80)).toEqual([]);
});

test('clips each line to the terminal width', () => {
  const preview = new LivePreview();
  preview.apply(delta({ kind: 'reasoning', offset: 0, text: 'x'.repeat(200) }));
  expect(preview.lines(20).every((line) => Array.from(line).length <= 20)).toBe(true);
  expect(preview.lines(20)[0]).toBe('L4.executor thinking');
});
