import type { QueueStore, RateWindow } from '../queue/queue-store';
import { logger } from '../telemetry/logger';

const quotaLog = logger('quota');

/**
 * The free-quota ledger: fixed-window counters per model, kept in the queue store so every worker replica
 * shares them. `rpm` and `rpd` count one point per request and are exact; `tpm` holds a deliberately high
 * estimate while the call runs and is settled to the true usage afterwards. A provider 429 sets a cooldown.
 *
 * The ledger guards a free tier, not money, so it never stands in the way of a call because of itself: every
 * operation is permissive when the store fails (the call is allowed), logs one line, and never throws.
 */

export type QuotaDimension = 'rpm' | 'tpm' | 'rpd';

/** A model's free quota, as the catalog declares it (`ModelRow.quota`). */
export interface Quota {
  rpm: number;
  tpm: number;
  rpd: number;
}

export type QuotaUsage = Record<QuotaDimension, RateWindow>;

/** What one `reserve` took; hand it to `settle` once the call is over. Opaque to callers. */
export interface Reservation {
  readonly modelKey: string;
  readonly quota: Quota;
  /** Tokens held in the tpm window (0 when none were). */
  readonly tokens: number;
  /**
   * Epoch ms (local clock) before which the tpm window holding `tokens` has certainly not ended. After it, the
   * tokens have ended with their window and must not be refunded into whichever window is open by then.
   */
  readonly tpmWindowEndsAt: number;
  /** True when `reserve` failed open: nothing is tracked, and settling changes nothing. */
  readonly permissive: boolean;
}

export type ReserveResult =
  { ok: true; reservation: Reservation } | { ok: false; dimension: QuotaDimension; retryAfterMs: number };

export type AdmitResult =
  /** The call may go ahead; `reservation` (to settle afterwards) only when a quota was given. */
  | { outcome: 'admitted'; reservation?: Reservation }
  /** A flag of the caller's `unlessFlags` is set (the first in order); nothing was taken. */
  | { outcome: 'flagged'; flag: string }
  /** The model is held after a provider 429; nothing was taken. */
  | { outcome: 'cooling_down' }
  /** As a refused `reserve`: nothing was taken. */
  | { outcome: 'quota_spent'; dimension: QuotaDimension; retryAfterMs: number };

export interface QuotaLedger {
  /**
   * Takes one request from `rpm` and `rpd` and `estimatedTokens` from `tpm`, all or nothing: when a window
   * refuses, whatever the others gave is refunded and the answer names that window and when it rolls.
   */
  reserve(modelKey: string, quota: Quota, estimatedTokens: number): Promise<ReserveResult>;
  /**
   * Everything the walk asks before one call, in one store round trip: refused when a flag of `unlessFlags` is set
   * (checked first, in order) or the model is cooling down; otherwise, with a `quota`, reserves as `reserve` does.
   * Fails open like every operation: with the store down the call is admitted, no flag counts as set.
   */
  admit(
    modelKey: string,
    quota: Quota | undefined,
    estimatedTokens: number,
    unlessFlags?: readonly string[],
  ): Promise<AdmitResult>;
  /** Moves the tpm hold from the estimate to `actualTokens`; usage above the estimate is charged, never refused. */
  settle(reservation: Reservation, actualTokens: number): Promise<void>;
  /** The model's windows as GET /v1/models shows them (the counters `reserve` spends). */
  usage(modelKey: string, quota: Quota): Promise<QuotaUsage>;
  /** Holds the model for `ms` after a provider 429, across replicas. */
  cooldown(modelKey: string, ms: number): Promise<void>;
  coolingDown(modelKey: string): Promise<boolean>;
}

const windowSeconds: Record<QuotaDimension, number> = { rpm: 60, tpm: 60, rpd: 86_400 };

/**
 * The order windows are checked in, which decides the window a refusal names when several are spent: the day
 * first, since its refusal holds for hours and is the one worth reporting; tokens last.
 */
const reserveOrder: readonly QuotaDimension[] = ['rpd', 'rpm', 'tpm'];

/** The store key of one of a model's windows; the store adds the instance prefix. */
export function quotaKey(modelKey: string, dimension: QuotaDimension | 'cooldown'): string {
  return `quota:${modelKey}:${dimension}`;
}

export function createQuotaLedger(
  store: QueueStore,
  log: (line: string) => void = (line) => quotaLog.warn(line),
): QuotaLedger {
  // A reservation settles once; a second settle (a retry path settling again) must not move tokens twice.
  const settled = new WeakSet<Reservation>();
  // Settles still on their way to the store; `usage` waits for them.
  const unsettled = new Set<Promise<void>>();

  function failed(operation: string, modelKey: string, err: unknown, outcome: string): void {
    const reason = err instanceof Error ? err.message : String(err);
    log(`${operation} ${modelKey} failed (${reason}); ${outcome}`);
  }

  function permissiveReservation(modelKey: string, quota: Quota): Reservation {
    return { modelKey, quota, tokens: 0, tpmWindowEndsAt: 0, permissive: true };
  }

  /**
   * Flags, cooldown and every window of the quota in one `consumeAll`: all or nothing, so a refused window leaves
   * the others untouched and there is nothing to give back.
   */
  async function admit(
    operation: string,
    modelKey: string,
    quota: Quota | undefined,
    estimatedTokens: number,
    unlessFlags: readonly string[],
    checkCooldown: boolean,
  ): Promise<AdmitResult> {
    const flags = checkCooldown ? [...unlessFlags, quotaKey(modelKey, 'cooldown')] : unlessFlags;
    // An estimate above the whole minute budget could never fit and would shut the model out for good; holding
    // the whole budget is the most it can mean. Settling charges the true usage, however high.
    const tokens = quota ? Math.min(wholeTokens(estimatedTokens), quota.tpm) : 0;
    const dimensions = quota ? reserveOrder.filter((d) => d !== 'tpm' || tokens > 0) : [];
    const costs: Record<QuotaDimension, number> = { rpd: 1, rpm: 1, tpm: tokens };
    try {
      // Noted before the request goes out: Redis measures `resetMs` later, so `sentAt + resetMs` is never after
      // the window's true end, and a refund checked against it never lands in the next window by our clock.
      const sentAt = Date.now();
      const decision = await store.consumeAll({
        unlessFlags: flags,
        windows: quota
          ? dimensions.map((dimension) => ({
              key: quotaKey(modelKey, dimension),
              points: quota[dimension],
              durationSeconds: windowSeconds[dimension],
              cost: costs[dimension],
            }))
          : [],
      });
      if (decision.outcome === 'flagged') {
        // The cooldown is checked last, so a flag the caller did not name is the cooldown.
        return unlessFlags.includes(decision.flag) ? decision : { outcome: 'cooling_down' };
      }
      if (decision.outcome === 'refused') {
        return {
          outcome: 'quota_spent',
          dimension: dimensions[decision.index]!,
          retryAfterMs: decision.decision.retryAfterMs,
        };
      }
      if (!quota) return { outcome: 'admitted' };
      const tpm = dimensions.indexOf('tpm');
      const tpmWindowEndsAt = tpm >= 0 ? sentAt + decision.decisions[tpm]!.resetMs : 0;
      return { outcome: 'admitted', reservation: { modelKey, quota, tokens, tpmWindowEndsAt, permissive: false } };
    } catch (err) {
      // The call goes ahead unheld and untracked: the ledger never stands in the way because of itself.
      failed(operation, modelKey, err, 'allowing the call');
      return { outcome: 'admitted', reservation: quota && permissiveReservation(modelKey, quota) };
    }
  }

  async function settleNow(reservation: Reservation, actualTokens: number): Promise<void> {
    try {
      if (reservation.permissive || settled.has(reservation)) return;
      settled.add(reservation);
      const { modelKey, quota, tokens } = reservation;
      const key = quotaKey(modelKey, 'tpm');
      const actual = wholeTokens(actualTokens);
      if (actual < tokens) {
        if (Date.now() < reservation.tpmWindowEndsAt) {
          await store.refund(key, quota.tpm, windowSeconds.tpm, tokens - actual);
        }
      } else if (actual > tokens) {
        // Already spent at the provider: counted in the window open now, past the limit if need be.
        await store.charge(key, quota.tpm, windowSeconds.tpm, actual - tokens);
      }
    } catch (err) {
      failed('settle', nameOf(reservation), err, 'tpm left as reserved');
    }
  }

  return {
    async reserve(modelKey, quota, estimatedTokens) {
      // No flag and no cooldown is asked about, so the answer is a reservation or a spent window.
      const admitted = await admit('reserve', modelKey, quota, estimatedTokens, [], false);
      if (admitted.outcome === 'quota_spent') {
        return { ok: false, dimension: admitted.dimension, retryAfterMs: admitted.retryAfterMs };
      }
      const reservation = admitted.outcome === 'admitted' ? admitted.reservation : undefined;
      return { ok: true, reservation: reservation ?? permissiveReservation(modelKey, quota) };
    },

    admit: (modelKey, quota, estimatedTokens, unlessFlags = []) =>
      admit('admit', modelKey, quota, estimatedTokens, unlessFlags, true),

    settle(reservation, actualTokens) {
      const work = settleNow(reservation, actualTokens);
      unsettled.add(work);
      void work.finally(() => unsettled.delete(work));
      return work;
    },

    async usage(modelKey, quota) {
      try {
        // The walk does not wait for its settles (the reply is already in hand); what this process reports must.
        if (unsettled.size > 0) await Promise.all(unsettled);
        const peek = (dimension: QuotaDimension) =>
          store.peek(quotaKey(modelKey, dimension), quota[dimension], windowSeconds[dimension]);
        const [rpm, tpm, rpd] = await Promise.all([peek('rpm'), peek('tpm'), peek('rpd')]);
        return { rpm, tpm, rpd };
      } catch (err) {
        failed('usage', modelKey, err, 'reporting zero usage');
        const none = (limit: number): RateWindow => ({ used: 0, limit, resetMs: 0 });
        return { rpm: none(quota.rpm), tpm: none(quota.tpm), rpd: none(quota.rpd) };
      }
    },

    async cooldown(modelKey, ms) {
      try {
        // A flag needs a whole, positive TTL; a non-positive one (a Retry-After of 0) holds nothing.
        const ttlMs = Math.ceil(ms);
        if (!(ttlMs > 0)) return;
        await store.setFlag(quotaKey(modelKey, 'cooldown'), ttlMs);
      } catch (err) {
        failed('cooldown', modelKey, err, 'model not held');
      }
    },

    async coolingDown(modelKey) {
      try {
        return await store.hasFlag(quotaKey(modelKey, 'cooldown'));
      } catch (err) {
        failed('coolingDown', modelKey, err, 'treating the model as available');
        return false;
      }
    },
  };
}

/** Token counts as the store counts them: whole, non-negative (rounded up, so the ledger never undercounts). */
function wholeTokens(tokens: number): number {
  return Number.isFinite(tokens) && tokens > 0 ? Math.ceil(tokens) : 0;
}

/** Names a reservation in a log line without trusting its shape (settle must not throw on a foreign value). */
function nameOf(reservation: Reservation): string {
  const modelKey = (reservation as Partial<Reservation> | undefined)?.modelKey;
  return typeof modelKey === 'string' ? modelKey : 'an unknown reservation';
}
