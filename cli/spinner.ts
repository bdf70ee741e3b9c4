// What `keel job` / `keel watch` show while nothing prints: the level at work, on one line of stderr (TTY only).
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Spinner {
  /** What the job is doing now; the line reads "<frame> <label> <seconds> s" (seconds since the label changed). */
  update(label: string): void;
  /** While a prompt owns the terminal line: nothing is drawn until resume(). */
  pause(): void;
  resume(): void;
  /** Lines drawn under the spinner's (live model output; docs/live-output.md); [] for none. */
  preview(lines: string[]): void;
  /** The width preview lines may take. */
  readonly columns: number;
  /** Clears the line (and the preview) so a printed row does not mix with it; the next tick redraws it. */
  clear(): void;
  stop(): void;
}

const silent: Spinner = {
  update: () => undefined,
  preview: () => undefined,
  columns: 80,
  pause: () => undefined,
  resume: () => undefined,
  clear: () => undefined,
  stop: () => undefined,
};

export function createSpinner(stream: NodeJS.WriteStream, enabled: boolean): Spinner {
  if (!enabled || !stream.isTTY) return silent;
  let label = 'waiting for the job…';
  let paused = false;
  let since = Date.now();
  let frame = 0;
  let shown = false;
  let below: string[] = [];
  /** Whether preview lines are on the screen under the spinner's line (cleared with it, to the end of the screen). */
  let drawnBelow = false;
  // Erase the spinner's line, or from it to the end of the screen when preview lines are under it.
  const erase = () => (drawnBelow ? '\r\u001b[J' : '\r\u001b[2K');
  const draw = () => {
    if (paused) return;
    const seconds = Math.floor((Date.now() - since) / 1000);
    // The preview lines go under the spinner's, dimmed, and the cursor goes back to the spinner's line, so clearing
    // from there to the end of the screen takes them all away.
    const preview = below.map((line) => `\n\u001b[2m${line}\u001b[22m`).join('');
    const back = below.length > 0 ? `\u001b[${below.length}F` : '';
    stream.write(`${erase()}${FRAMES[frame++ % FRAMES.length]} ${label} ${seconds} s${preview}${back}`);
    drawnBelow = below.length > 0;
    shown = true;
  };
  const timer = setInterval(draw, 120);
  timer.unref();
  const clear = () => {
    if (shown) stream.write(erase());
    shown = false;
    drawnBelow = false;
  };
  return {
    update(next) {
      if (next !== label) since = Date.now();
      label = next;
    },
    preview(lines) {
      below = lines;
    },
    get columns() {
      return stream.columns ?? 80;
    },
    pause() {
      clear();
      paused = true;
    },
    resume() {
      paused = false;
    },
    clear,
    stop() {
      clearInterval(timer);
      clear();
    },
  };
}
