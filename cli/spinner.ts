// What `keel job` / `keel watch` show while nothing prints: the level at work, on one line of stderr (TTY only).
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Spinner {
  /** What the job is doing now; the line reads "<frame> <label> <seconds> s" (seconds since the label changed). */
  update(label: string): void;
  /** While a prompt owns the terminal line: nothing is drawn until resume(). */
  pause(): void;
  resume(): void;
  /** Clears the line so a printed row does not mix with it; the next tick redraws it. */
  clear(): void;
  stop(): void;
}

const silent: Spinner = {
  update: () => undefined,
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
  const draw = () => {
    if (paused) return;
    const seconds = Math.floor((Date.now() - since) / 1000);
    stream.write(`\r\u001b[2K${FRAMES[frame++ % FRAMES.length]} ${label} ${seconds} s`);
    shown = true;
  };
  const timer = setInterval(draw, 120);
  timer.unref();
  const clear = () => {
    if (shown) stream.write('\r\u001b[2K');
    shown = false;
  };
  return {
    update(next) {
      if (next !== label) since = Date.now();
      label = next;
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
