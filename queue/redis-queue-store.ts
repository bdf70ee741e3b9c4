import { Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { assertRateLimit, assertTtl, consumeOne, deliver, rateKeyPrefix, type Listener } from './store-helpers';
import type { QueueStore } from './queue-store';

export interface RedisQueueStoreOptions {
  /** `redis://` or `rediss://` URL, credentials and database included. */
  url: string;
  /** Namespace for every key and channel, e.g. `keel:<instance id>:`. */
  prefix: string;
}

interface Channel {
  listeners: Set<Listener>;
  /** Settles when Redis has confirmed SUBSCRIBE; every local subscriber of the channel waits on it. */
  live: Promise<void>;
}

// The store backs request paths (rate limits, cancel flags), so a Redis outage must fail those requests
// within seconds instead of queueing them indefinitely while ioredis reconnects in the background.
const connectionOptions: RedisOptions = {
  lazyConnect: true,
  connectTimeout: 5_000,
  commandTimeout: 5_000,
  maxRetriesPerRequest: 2,
  retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  // disconnect() is only used on sockets being abandoned (failed handshake, failed QUIT); ioredis would otherwise
  // keep a 2 s timer for a socket that is already gone, delaying the exit of a process that failed to connect.
  disconnectTimeout: 200,
};

// Bounds the whole connect-and-PING handshake: connectTimeout only covers the TCP connect, not a peer that
// accepts the socket and then never answers.
const handshakeTimeoutMs = 10_000;

/**
 * Connects to Redis and resolves once a PING has succeeded; rejects with the URL (password redacted) and the
 * underlying cause when Redis is unreachable, instead of retrying forever. Subscriptions share one extra
 * connection, opened on the first `subscribe`.
 */
export async function createRedisQueueStore({ url, prefix }: RedisQueueStoreOptions): Promise<QueueStore> {
  const commands = await connect(new Redis(url, connectionOptions), url);
  const limiters = new Map<string, RateLimiterRedis>();
  const channels = new Map<string, Channel>();
  let subscriber: Promise<Redis> | undefined;
  let subscriberClient: Redis | undefined;
  let closing: Promise<void> | undefined;

  function limiterFor(points: number, durationSeconds: number): RateLimiterRedis {
    const id = `${points}:${durationSeconds}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: commands,
        points,
        duration: durationSeconds,
        keyPrefix: rateKeyPrefix(prefix, id),
      });
      limiters.set(id, limiter);
    }
    return limiter;
  }

  function openSubscriber(): Promise<Redis> {
    if (!subscriber) {
      const client = commands.duplicate();
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
    async consume(key, points, durationSeconds) {
      assertRateLimit(points, durationSeconds);
      return consumeOne(limiterFor(points, durationSeconds), key);
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
  // Without a listener ioredis prints every failed reconnect; failures reach callers as rejected commands.
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
