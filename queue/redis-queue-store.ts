import { Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import {
  allowance,
  assertAmount,
  assertCost,
  assertRateLimit,
  assertTtl,
  assertWindowSpends,
  decide,
  deliver,
  rateKeyPrefix,
  refusal,
  windowOf,
  type Listener,
} from './store-helpers';
import type { QueueStore } from './queue-store';
import { logRedisErrors, type RedisErrorLog } from './redis-errors';
import { logger } from '../telemetry/logger';

export interface RedisQueueStoreOptions {
  /** `redis://` or `rediss://` URL, credentials and database included. */
  url: string;
  /** Namespace for every key and channel, e.g. `keel:<instance id>:`. */
  prefix: string;
  /** Where the clients' connection errors are logged (rate-limited): the process's structured log by default. */
  log?: RedisErrorLog;
}

interface Channel {
  listeners: Set<Listener>;
  /** Settles when Redis has confirmed SUBSCRIBE; every local subscriber of the channel waits on it. */
  live: Promise<void>;
}

// The store backs request paths (rate limits, live event channels), so a Redis outage must fail those calls at
// once rather than queue them while ioredis reconnects in the background: no offline queue (a command sent while
// disconnected rejects immediately), no per-command retries, and a short timeout for a Redis that accepted the
// command and then went quiet. Callers decide what a failure means (docs/failure-modes.md).
const connectionOptions: RedisOptions = {
  lazyConnect: true,
  connectTimeout: 2_000,
  commandTimeout: 1_000,
  maxRetriesPerRequest: 0,
  enableOfflineQueue: false,
  retryStrategy: (attempt) => Math.min(attempt * 200, 1_000),
  // disconnect() is only used on sockets being abandoned (failed handshake, failed QUIT); ioredis would otherwise
  // keep a 2 s timer for a socket that is already gone, delaying the exit of a process that failed to connect.
  disconnectTimeout: 200,
};

/**
 * Replaces rate-limiter-flexible's increment script (its documented `customIncrTtlLuaScript` option), which every
 * consume, reward and penalty runs with KEYS[1] = the window key and ARGV = points (negative for a reward), window
 * seconds, the limiter's limit. Its stock script increments first and compares afterwards, so a refused consume
 * stays counted: with a cost of N it would eat N points of a window it was refused, refusing later consumes that
 * fit. Putting the points back afterwards would not be exact either: until the compensation lands, every replica
 * sees the inflated count, and a reward that lands after the window ended opens a new window below zero.
 * So this script decides before it writes:
 * - a consume that does not fit changes nothing and reports what the total would have been (the limiter then
 *   rejects, as it does for any total above the limit), with the open window's TTL, or -2 when none is open;
 * - a reward never recreates an ended window and never takes one below zero.
 * The library defines its script as the client command `rlflxIncr`, the last definition winning, so every limiter
 * on a client must pass this same script.
 */
const exactWindowScript = `
local delta = tonumber(ARGV[1])
local limit = tonumber(ARGV[3])
local used = tonumber(redis.call('get', KEYS[1]) or '0')
local ttl = redis.call('pttl', KEYS[1])
if delta < 0 then
  if ttl == -2 then return {0, -2} end
  local back = math.min(-delta, used)
  if back > 0 then used = redis.call('decrby', KEYS[1], string.format('%d', back)) end
  return {used, ttl}
end
if used + delta > limit then return {used + delta, ttl} end
used = redis.call('incrby', KEYS[1], ARGV[1])
if ttl < 0 then
  ttl = tonumber(ARGV[2]) * 1000
  redis.call('pexpire', KEYS[1], ttl)
end
return {used, ttl}
`;

/**
 * `consumeAll` in one round trip, atomic as every script is: KEYS are the flags to check, then the windows (the very
 * keys rate-limiter-flexible keeps them under, so `consume`, `peek` and this script share them); ARGV[1] is the number
 * of flags, then points, window seconds and cost per window. Each window follows the exact script above: read
 * every window first and write only when all fit, so a refusal leaves every window as it was.
 * Answers {0, flag index}, {1, window index, used, pttl} (refused) or {2, used, pttl, used, pttl, ...} (allowed).
 */
const consumeAllScript = `
local flags = tonumber(ARGV[1])
for i = 1, flags do
  if redis.call('exists', KEYS[i]) == 1 then return {0, i} end
end
local windows = #KEYS - flags
local ttls = {}
for j = 1, windows do
  local key = KEYS[flags + j]
  local used = tonumber(redis.call('get', key) or '0')
  local ttl = redis.call('pttl', key)
  if used + tonumber(ARGV[j * 3 + 1]) > tonumber(ARGV[j * 3 - 1]) then return {1, j, used, ttl} end
  ttls[j] = ttl
end
local out = {2}
for j = 1, windows do
  local key = KEYS[flags + j]
  local used = redis.call('incrby', key, ARGV[j * 3 + 1])
  local ttl = ttls[j]
  if ttl < 0 then
    ttl = tonumber(ARGV[j * 3]) * 1000
    redis.call('pexpire', key, ttl)
  end
  out[#out + 1] = used
  out[#out + 1] = ttl
end
return out
`;

/**
 * `appendBounded` as one step: KEYS[1] = the group (a hash of list name to the list's size in bytes), KEYS[2] = the
 * list; ARGV = list name, byte bound, TTL ms, reset (1/0), channel ('' for none), message, then the entries. The
 * PUBLISH is inside the script, so it lands after the entries are stored: a reader that subscribed first and then
 * reads the lists sees every entry in one or the other.
 */
const appendBoundedScript = `
local field, max, ttl = ARGV[1], tonumber(ARGV[2]), ARGV[3]
if ARGV[4] == '1' then
  redis.call('DEL', KEYS[2])
  redis.call('HSET', KEYS[1], field, 0)
end
local bytes = tonumber(redis.call('HGET', KEYS[1], field) or '0')
for i = 7, #ARGV do
  redis.call('RPUSH', KEYS[2], ARGV[i])
  bytes = bytes + #ARGV[i]
end
while bytes > max do
  local dropped = redis.call('LPOP', KEYS[2])
  if not dropped then
    bytes = 0
    break
  end
  bytes = bytes - #dropped
end
redis.call('HSET', KEYS[1], field, bytes)
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
if ARGV[5] ~= '' then redis.call('PUBLISH', ARGV[5], ARGV[6]) end
return 1
`;

/** The Redis list behind one list of an `appendBounded` group. */
function boundedListKey(group: string, field: string): string {
  return `${group}:${field}`;
}

type ConsumeAllReply = [0, number] | [1, number, number, number] | [2, ...number[]];

// Bounds the whole connect-and-PING handshake: connectTimeout only covers the TCP connect, not a peer that
// accepts the socket and then never answers.
const handshakeTimeoutMs = 10_000;

/**
 * Connects to Redis and resolves once a PING has succeeded; rejects with the URL (password redacted) and the
 * underlying cause when Redis is unreachable, instead of retrying forever. Subscriptions share one extra
 * connection, opened on the first `subscribe`.
 */
export async function createRedisQueueStore({
  url,
  prefix,
  log = logger('redis'),
}: RedisQueueStoreOptions): Promise<QueueStore> {
  const client = new Redis(url, connectionOptions);
  logRedisErrors(client, log, 'queue store');
  const commands = await connect(client, url);
  // ioredis sends EVALSHA and falls back to EVAL once when Redis does not know the script yet.
  commands.defineCommand('keelConsumeAll', { lua: consumeAllScript });
  const consumeAllCommand = (
    commands as unknown as Record<string, (...args: string[]) => Promise<ConsumeAllReply>>
  ).keelConsumeAll!.bind(commands);
  commands.defineCommand('keelAppendBounded', { numberOfKeys: 2, lua: appendBoundedScript });
  const appendBoundedCommand = (
    commands as unknown as Record<string, (...args: string[]) => Promise<unknown>>
  ).keelAppendBounded!.bind(commands);
  const limiters = new Map<string, RateLimiterRedis>();
  const channels = new Map<string, Channel>();
  let subscriber: Promise<Redis> | undefined;
  let subscriberClient: Redis | undefined;
  let closing: Promise<void> | undefined;

  function limiterFor(points: number, durationSeconds: number, uncapped = false): RateLimiterRedis {
    const id = `${points}:${durationSeconds}`;
    const cacheKey = uncapped ? `${id}:uncapped` : id;
    let limiter = limiters.get(cacheKey);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: commands,
        // The uncapped twin reads and writes the very same windows (same key prefix) but never refuses: `charge`
        // spends through it, since the exact script cannot tell a penalty from a consume.
        points: uncapped ? Number.MAX_SAFE_INTEGER : points,
        duration: durationSeconds,
        keyPrefix: rateKeyPrefix(prefix, id),
        customIncrTtlLuaScript: exactWindowScript,
      });
      limiters.set(cacheKey, limiter);
    }
    return limiter;
  }

  function openSubscriber(): Promise<Redis> {
    if (!subscriber) {
      const client = commands.duplicate();
      logRedisErrors(client, log, 'queue store subscriber');
      client.on('message', (name: string, message: string) => {
        const channel = channels.get(name);
        if (!channel) return;
        for (const listener of [...channel.listeners]) deliver(listener, message);
      });
      const attempt = connect(client, url);
      subscriber = attempt;
      void attempt.then(
        (connected) => {
          subscriberClient = connected;
        },
        () => {
          // Forget a failed attempt so the next subscribe tries again rather than inheriting the old failure.
          if (subscriber === attempt) subscriber = undefined;
        },
      );
    }
    return subscriber;
  }

  async function removeListener(name: string, channel: Channel, listener: Listener): Promise<void> {
    channel.listeners.delete(listener);
    if (channel.listeners.size > 0 || channels.get(name) !== channel) return;
    channels.delete(name);
    if (closing || !subscriberClient) return;
    // Issued in the same tick as the delete above, so it reaches Redis ahead of the SUBSCRIBE of any newer
    // subscriber of this channel and cannot undo that subscription.
    await subscriberClient.unsubscribe(name);
  }

  return {
    async consume(key, points, durationSeconds, cost = 1) {
      assertRateLimit(points, durationSeconds);
      assertCost(cost);
      return decide(limiterFor(points, durationSeconds).consume(key, cost), points, durationSeconds, cost);
    },

    async refund(key, points, durationSeconds, amount) {
      assertRateLimit(points, durationSeconds);
      assertAmount(amount);
      if (amount > 0) await limiterFor(points, durationSeconds).reward(key, amount);
    },

    async charge(key, points, durationSeconds, amount) {
      assertRateLimit(points, durationSeconds);
      assertAmount(amount);
      if (amount > 0) await limiterFor(points, durationSeconds, true).penalty(key, amount);
    },

    async consumeAll({ unlessFlags = [], windows }) {
      assertWindowSpends(windows);
      const keys = [
        ...unlessFlags.map((flag) => prefix + flag),
        ...windows.map((w) => limiterFor(w.points, w.durationSeconds).getKey(w.key)),
      ];
      const args = [String(unlessFlags.length)];
      for (const w of windows) args.push(String(w.points), String(w.durationSeconds), String(w.cost));
      const reply = await consumeAllCommand(String(keys.length), ...keys, ...args);
      if (reply[0] === 0) return { outcome: 'flagged', flag: unlessFlags[reply[1] - 1]! };
      if (reply[0] === 1) {
        const index = reply[1] - 1;
        const { points, durationSeconds } = windows[index]!;
        return { outcome: 'refused', index, decision: refusal(points, durationSeconds, reply[2], reply[3]) };
      }
      return {
        outcome: 'allowed',
        decisions: windows.map((w, i) => allowance(w.points, reply[1 + i * 2]!, reply[2 + i * 2]!)),
      };
    },

    async peek(key, points, durationSeconds) {
      assertRateLimit(points, durationSeconds);
      return windowOf(await limiterFor(points, durationSeconds).get(key), points);
    },

    async setFlag(key, ttlMs) {
      assertTtl(ttlMs);
      await commands.set(prefix + key, '1', 'PX', ttlMs);
    },

    async hasFlag(key) {
      return (await commands.exists(prefix + key)) === 1;
    },

    async claimOnce(key, ttlMs) {
      assertTtl(ttlMs);
      return (await commands.set(prefix + key, '1', 'PX', ttlMs, 'NX')) === 'OK';
    },

    async incrementCounter(key) {
      return commands.incr(prefix + key);
    },

    // One hash per collection: HSET replaces a record atomically, HVALS reads the collection in one round trip.
    async putRecord(collection, id, value) {
      await commands.hset(prefix + collection, id, value);
    },

    async getRecord(collection, id) {
      return (await commands.hget(prefix + collection, id)) ?? undefined;
    },

    async listRecords(collection) {
      return commands.hvals(prefix + collection);
    },

    async appendBounded(group, field, entries, options) {
      assertTtl(options.ttlMs);
      const publish = options.publish;
      await appendBoundedCommand(
        prefix + group,
        boundedListKey(prefix + group, field),
        field,
        String(options.maxBytes),
        String(options.ttlMs),
        options.reset ? '1' : '0',
        publish ? prefix + publish.channel : '',
        publish?.message ?? '',
        ...entries,
      );
    },

    async dropBounded(group, field, publish) {
      const batch = commands
        .multi()
        .hdel(prefix + group, field)
        .del(boundedListKey(prefix + group, field));
      if (publish) batch.publish(prefix + publish.channel, publish.message);
      await batch.exec();
    },

    async readBounded(group) {
      const fields = await commands.hkeys(prefix + group);
      if (fields.length === 0) return [];
      const batch = commands.pipeline();
      for (const field of fields) batch.lrange(boundedListKey(prefix + group, field), 0, -1);
      const replies = (await batch.exec()) ?? [];
      return replies.flatMap(([err, list]) => (err || !Array.isArray(list) ? [] : [list as string[]]));
    },

    async publish(channel, message) {
      await commands.publish(prefix + channel, message);
    },

    async subscribe(channel, onMessage) {
      if (closing) throw new Error('Queue store is closed');
      const name = prefix + channel;
      // A fresh wrapper per call, so subscribing the same callback twice yields two independent subscriptions.
      const listener: Listener = (message) => onMessage(message);
      let entry = channels.get(name);
      if (!entry) {
        entry = {
          listeners: new Set(),
          live: openSubscriber().then(async (client) => {
            await client.subscribe(name);
          }),
        };
        channels.set(name, entry);
      }
      const subscribed = entry;
      subscribed.listeners.add(listener);
      try {
        await subscribed.live;
      } catch (err) {
        subscribed.listeners.delete(listener);
        if (subscribed.listeners.size === 0 && channels.get(name) === subscribed) channels.delete(name);
        throw err;
      }
      let unsubscribed: Promise<void> | undefined;
      return () => (unsubscribed ??= removeListener(name, subscribed, listener));
    },

    close() {
      closing ??= (async () => {
        channels.clear();
        const pendingSubscriber = subscriber?.catch(() => undefined);
        await quit(commands);
        const client = await pendingSubscriber;
        if (client) await quit(client);
      })();
      return closing;
    },
  };
}

async function connect(client: Redis, url: string): Promise<Redis> {
  let lastError: Error | undefined;
  // The cause a failed handshake reports; the log has its own listener (logRedisErrors).
  client.on('error', (err: Error) => {
    lastError = err;
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${handshakeTimeoutMs} ms`)), handshakeTimeoutMs);
  });
  try {
    await Promise.race([
      (async () => {
        await client.connect();
        await client.ping();
      })(),
      timeout,
    ]);
    return client;
  } catch (err) {
    client.disconnect();
    // connect() itself only reports "Connection is closed."; the socket error says why.
    const cause = lastError ?? err;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new Error(`Cannot connect to Redis at ${redact(url)}: ${reason}`, { cause });
  } finally {
    clearTimeout(timer);
  }
}

async function quit(client: Redis): Promise<void> {
  try {
    await client.quit();
  } catch {
    // QUIT cannot be delivered over a broken connection; dropping the socket is all that is left to do.
    client.disconnect();
  }
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<invalid Redis URL>';
  }
}
