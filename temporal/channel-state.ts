import type { Client } from '@temporalio/client';

/** grpc-js connectivity states (ConnectivityState), by value: this project does not depend on grpc-js itself. */
const TRANSIENT_FAILURE = 3;
const SHUTDOWN = 4;

/** The part of a grpc-js channel read here. */
interface WatchableChannel {
  getConnectivityState(tryToConnect: boolean): number;
  watchConnectivityState(currentState: number, deadline: number, callback: (error?: Error) => void): void;
}

/**
 * The gRPC channel under a Temporal client. `Connection` keeps its grpc-js client protected, yet only the channel knows
 * that the server refused or dropped the connection; the lookup is structural, so a connection without one (a test
 * double, a future SDK) only loses the early answer.
 */
function channelOf(temporal: Client): WatchableChannel | undefined {
  const grpcClient = (temporal.connection as unknown as { client?: { getChannel?: () => unknown } }).client;
  const channel = grpcClient?.getChannel?.() as Partial<WatchableChannel> | undefined;
  return typeof channel?.getConnectivityState === 'function' && typeof channel.watchConnectivityState === 'function'
    ? (channel as WatchableChannel)
    : undefined;
}

function isRefusing(state: number | undefined): boolean {
  return state === TRANSIENT_FAILURE || state === SHUTDOWN;
}

/** True while the channel is failing to connect: the last attempt was refused or reset, and it waits to try again. */
export function channelRefusing(temporal: Client): boolean {
  return isRefusing(channelOf(temporal)?.getConnectivityState(false));
}

/**
 * Calls `onRefused` once if the channel starts failing to connect before `signal` aborts (each state change is
 * watched with a bounded deadline, so an idle healthy channel holds no watcher for long).
 */
export function whenChannelRefuses(temporal: Client, signal: AbortSignal, onRefused: () => void): void {
  const channel = channelOf(temporal);
  if (!channel) return;
  const watch = () => {
    if (signal.aborted) return;
    const state = channel.getConnectivityState(false);
    if (isRefusing(state)) {
      onRefused();
      return;
    }
    channel.watchConnectivityState(state, Date.now() + 1_000, () => watch());
  };
  watch();
}
