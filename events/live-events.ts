import { eventEnvelope, type EventEnvelope } from './envelope';
import type { QueueStore } from '../queue/queue-store';

type Listener = (event: EventEnvelope) => void;

interface Channel {
  listeners: Set<Listener>;
  /** Settles when the queue store's subscription is live; rejects when it could not be made. */
  live: Promise<() => Promise<void>>;
}

// Per queue store, so two stores (tests, benches) never share a subscription.
const channelsByStore = new WeakMap<QueueStore, Map<string, Channel>>();

/**
 * Subscribes `onEvent` to a live channel of job events. All subscribers of one channel in this process share one
 * queue-store subscription and one decoded envelope per message: with a thousand streams on a job, a message is parsed
 * and validated once, not once per stream. Messages that are not valid envelopes are dropped (the stored row is the
 * event; streams read the backlog). Subscribers must not mutate the envelope they are handed.
 * Resolves once the subscription is live; rejects if the queue store cannot subscribe (e.g. Redis is down).
 */
export async function subscribeLiveEvents(
  queue: QueueStore,
  channel: string,
  onEvent: Listener,
): Promise<() => Promise<void>> {
  let channels = channelsByStore.get(queue);
  if (!channels) channelsByStore.set(queue, (channels = new Map<string, Channel>()));
  let entry = channels.get(channel);
  if (!entry) {
    const listeners = new Set<Listener>();
    const created: Channel = {
      listeners,
      live: queue.subscribe(channel, (message) => {
        const parsed = eventEnvelope.safeParse(parseJson(message));
        if (!parsed.success) return;
        for (const listener of [...listeners]) listener(parsed.data);
      }),
    };
    // A failed subscription is forgotten, so the next subscriber tries again rather than inheriting the failure.
    created.live.catch(() => {
      if (channels.get(channel) === created) channels.delete(channel);
    });
    channels.set(channel, created);
    entry = created;
  }
  const subscribed = entry;
  subscribed.listeners.add(onEvent);
  let unsubscribeStore: () => Promise<void>;
  try {
    unsubscribeStore = await subscribed.live;
  } catch (err) {
    subscribed.listeners.delete(onEvent);
    throw err;
  }
  let done: Promise<void> | undefined;
  return () =>
    (done ??= (async () => {
      subscribed.listeners.delete(onEvent);
      if (subscribed.listeners.size > 0 || channels.get(channel) !== subscribed) return;
      channels.delete(channel);
      await unsubscribeStore();
    })());
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
