/**
 * The log lines a job prints (worker, routing): pino, as Fastify uses, so every line is one JSON object with a level,
 * the trace id of the active span and whatever context the caller registered (the worker adds job and workflow ids).
 * Pretty-printed when stdout is a terminal, JSON otherwise (collectors and `docker logs`).
 */
import pino, { type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import { activeTraceId } from './spans';

type ContextSource = () => Record<string, unknown> | undefined;
const sources = new Set<ContextSource>();

/** Adds fields to every line logged from here on, e.g. the running activity's job id; a source returns undefined when it does not apply. */
export function addLogContext(source: ContextSource): void {
  sources.add(source);
}

/** The fields of a line logged here and now. */
export function logContext(): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const source of sources) Object.assign(fields, source());
  const traceId = activeTraceId();
  if (traceId) fields.trace_id = traceId;
  return fields;
}

function destination(): pino.DestinationStream | undefined {
  if (!process.stdout.isTTY) return undefined;
  // Loaded only for a terminal: every process and test file that logs imports this module, and most never print here.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pretty = require('pino-pretty') as typeof PinoPretty;
  // In-process (no worker thread): a terminal is a person watching, and a few lines a job are no throughput concern.
  return pretty({ colorize: true, ignore: 'pid,hostname' });
}

/** A logger writing to `stream` (tests) or, by default, stdout: pretty on a terminal, JSON lines otherwise. */
export function createLogger(stream: pino.DestinationStream | undefined = destination()): Logger {
  return pino({ level: 'info', mixin: logContext }, stream);
}

const root = createLogger();

/** Sets the level of every logger made from here on, e.g. `silent` for a test run (test/quiet-logs.ts). */
export function setLogLevel(level: pino.LevelWithSilent): void {
  root.level = level;
}

/** A child logger named for its part of Keel (`routing`, `quota`, `worker`). */
export function logger(component: string): Logger {
  return root.child({ component });
}
