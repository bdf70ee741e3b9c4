// What `keel job` / `keel watch` show while nothing prints: the level at work, on one line of stderr (TTY only).
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Spinner {
  /** The level now at work; the line reads "<frame> <label> working… <seconds> s". */
  update(label: string): void;
  /** Clears the line so a printed row does not mix with it; the next tick redraws it. */
  clear(): void;
  stop(): void;
}

const silent: Spinner = { update: () => undefined, clear: () => undefined, stop: () => undefined };

export function createSpinner(stream: NodeJS.WriteStream, enabled: boolean): Spinner {
  if (!enabled || !stream.isTTY) return silent;
  let label = 'waiting for the job';
  let since = Date.now();
  let frame = 0;
  let shown = false;
  const draw = () => {
    const seconds = Math.floor((Date.now() - since) / 1000);
    stream.write(`\r\u001b[2K${FRAMES[frame++ % FRAMES.length]} ${label} working… ${seconds} s`);
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
    clear,
    stop() {
      clearInterval(timer);
      clear();
    },
  };
}
