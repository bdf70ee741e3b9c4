import { createSpinner } from './spinner';

/** A stream that keeps what is written to it, synchronously, so each timer step's output is exact. */
function stream(isTTY: boolean) {
  const written: string[] = [];
  const write = (chunk: string) => written.push(chunk) > 0;
  return { stream: { isTTY, write } as unknown as NodeJS.WriteStream, written };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test('draws the current level on each tick, and nothing at all while a prompt owns the line', () => {
  const { stream: tty, written } = stream(true);
  const spinner = createSpinner(tty, true);
  spinner.update('L2.architect working…');
  jest.advanceTimersByTime(1_200);
  expect(written.length).toBeGreaterThan(0);
  expect(written.at(-1)).toMatch(/L2\.architect working… 1 s$/);

  spinner.pause();
  const atPause = written.length;
  expect(written.at(-1)).toBe('\r\u001b[2K');
  jest.advanceTimersByTime(60_000);
  expect(written.length).toBe(atPause);

  spinner.resume();
  jest.advanceTimersByTime(120);
  expect(written.at(-1)).toMatch(/L2\.architect working… \d+ s$/);
  spinner.stop();
  const atStop = written.length;
  jest.advanceTimersByTime(60_000);
  expect(written.length).toBe(atStop);
});

test('off the terminal, or when disabled (--json), it writes nothing', () => {
  const tty = stream(true);
  const piped = stream(false);
  for (const spinner of [createSpinner(tty.stream, false), createSpinner(piped.stream, true)]) {
    spinner.update('L2.architect working…');
    jest.advanceTimersByTime(1_200);
    spinner.stop();
  }
  expect([...tty.written, ...piped.written]).toEqual([]);
});

test('draws preview lines under its own, dimmed, and clears them with it', () => {
  const { stream: tty, written } = stream(true);
  const spinner = createSpinner(tty, true);
  spinner.update('L4.executor working…');
  spinner.preview(['L4.executor write_file notes.md', '  │ # Durable workflows']);
  jest.advanceTimersByTime(120);
  expect(written.at(-1)).toMatch(
    /^\r\u001b\[2K. L4\.executor working… 0 s\n\u001b\[2mL4\.executor write_file notes\.md\u001b\[22m\n\u001b\[2m {2}│ # Durable workflows\u001b\[22m\u001b\[2F$/,
  );
  spinner.clear();
  // From the spinner's line to the end of the screen: the preview goes too.
  expect(written.at(-1)).toBe('\r\u001b[J');
  spinner.preview([]);
  jest.advanceTimersByTime(120);
  spinner.clear();
  expect(written.at(-1)).toBe('\r\u001b[2K');
  spinner.stop();
});
