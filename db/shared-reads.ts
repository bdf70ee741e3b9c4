/**
 * Reads that many requests make at once with the same arguments, made once for all of them. Thousands of streams of a
 * few jobs opening together (a reconnect storm after a deploy, a console page watched by a whole team) each looked up
 * the same token, the same job row and the same backlog: one query per stream each, queued behind a pool of ten
 * connections until the pool's connect timeout answered 503 (docs/performance.md, "5,000 streams").
 */

interface Queued {
  read: () => Promise<unknown>;
  resolve: (result: Promise<unknown>) => void;
  promise: Promise<unknown>;
}

interface Entry {
  running: Promise<unknown>;
  /** The read that starts when `running` settles, shared by everyone who asked meanwhile. */
  queued?: Queued;
}

// Per owner (a pool, a queue store), so two databases never share a read.
const entriesByOwner = new WeakMap<object, Map<string, Entry>>();

/**
 * `read()`, shared with every concurrent caller of the same `owner` and `key`: with no read of the key running it
 * starts at once; with one running, the caller joins the next read, which starts when that one settles. So a caller's
 * result always comes from a read that started after it asked, exactly as fresh as a read of its own (a stream that
 * subscribed to its live channel and then reads its backlog misses nothing), and a key has at most one read running.
 * Every caller of a read gets the same result object, or the same rejection: callers must not mutate what they get.
 * `key` must name everything the read depends on (its arguments); the `read` of the first caller of a batch is used.
 */
export function sharedRead<T>(owner: object, key: string, read: () => Promise<T>): Promise<T> {
  let entries = entriesByOwner.get(owner);
  if (!entries) entriesByOwner.set(owner, (entries = new Map<string, Entry>()));
  const entry = entries.get(key);
  if (!entry) return start(entries, key, read);
  if (!entry.queued) {
    let resolve!: (result: Promise<unknown>) => void;
    const promise = new Promise<unknown>((done) => (resolve = done));
    entry.queued = { read, resolve, promise };
  }
  return entry.queued.promise as Promise<T>;
}

function start<T>(entries: Map<string, Entry>, key: string, read: () => Promise<T>): Promise<T> {
  // An async wrapper, so a read that throws before it returns a promise rejects its callers like any failed read.
  const running = (async () => read())();
  const entry: Entry = { running };
  entries.set(key, entry);
  const settled = () => {
    const queued = entry.queued;
    if (queued) queued.resolve(start(entries, key, queued.read));
    else entries.delete(key);
  };
  running.then(settled, settled);
  return running;
}
