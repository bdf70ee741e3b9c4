import { CronExpressionParser } from 'cron-parser';
import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';
import { SecretIdSchema } from '../secrets/id';
import type { ConnectorName } from './contract';

export const CONNECTOR_NAMES = ['notion', 'slack', 'github'] as const satisfies readonly ConnectorName[];
export const ConnectorNameSchema = z.enum(CONNECTOR_NAMES);

/** The spec's default schedules (UTC cron). */
export const DEFAULT_SCHEDULES: Record<ConnectorName, string> = {
  notion: '0 */2 * * *',
  slack: '*/30 * * * *',
  github: '0 */6 * * *',
};

/** A five-field cron expression that a maintained parser accepts (Temporal's schedule takes the same fields). */
export const CronSchema = z
  .string()
  .trim()
  .refine((value) => value.split(/\s+/).length === 5, 'a five-field cron expression, e.g. "0 */6 * * *"')
  .refine((value) => {
    try {
      CronExpressionParser.parse(value);
      return true;
    } catch {
      return false;
    }
  }, 'a valid cron expression (minute hour day-of-month month day-of-week)');

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyAsUndefined, schema.optional());

function connectorKeys<N extends string>(upper: N, schedule: string) {
  return {
    /** Off by default (spec): the schedule exists but is paused. */
    [`CONNECTOR_${upper}_ENABLED`]: z.preprocess(emptyAsUndefined, z.stringbool().default(false)),
    [`CONNECTOR_${upper}_SCHEDULE`]: z.preprocess(emptyAsUndefined, CronSchema.default(schedule)),
    /** The secret holding the credential; the value itself is only ever read from the secrets store. */
    [`CONNECTOR_${upper}_AUTH_SECRET_ID`]: optional(SecretIdSchema),
    /**
     * The org whose hub space the connector's documents land in; unset → the shared space every org reads
     * (docs/knowledge-hub.md, Tenancy).
     */
    [`CONNECTOR_${upper}_ORG`]: optional(z.string().trim().min(1).max(200)),
  } as Record<`CONNECTOR_${N}_ENABLED`, z.ZodType<boolean>> &
    Record<`CONNECTOR_${N}_SCHEDULE`, z.ZodType<string>> &
    Record<`CONNECTOR_${N}_AUTH_SECRET_ID`, z.ZodType<string | undefined>> &
    Record<`CONNECTOR_${N}_ORG`, z.ZodType<string | undefined>>;
}

/** What every connector shares: enabled flags, schedules, auth secret ids and the hub to clone. */
export const connectorsEnv = z.object({
  ...connectorKeys('NOTION', DEFAULT_SCHEDULES.notion),
  ...connectorKeys('SLACK', DEFAULT_SCHEDULES.slack),
  ...connectorKeys('GITHUB', DEFAULT_SCHEDULES.github),
  /** The curated hub's git URL (https, ssh or file://), cloned into each run's working directory; unset → empty. */
  KB_HUB_URL: optional(z.string().min(1)),
  /** Records between index flushes and cursor stores (a crash redoes at most this many). */
  CONNECTOR_FLUSH_EVERY: z.coerce.number().int().min(1).max(10_000).default(25),
});
export type ConnectorsEnv = z.infer<typeof connectorsEnv>;

/** One connector's scheduling settings out of the parsed environment. */
export function scheduleSettings(
  env: ConnectorsEnv,
  name: ConnectorName,
): { enabled: boolean; cron: string; authSecretId: string | undefined; org: string | null } {
  const upper = name.toUpperCase() as 'NOTION' | 'SLACK' | 'GITHUB';
  return {
    enabled: env[`CONNECTOR_${upper}_ENABLED`],
    cron: env[`CONNECTOR_${upper}_SCHEDULE`],
    authSecretId: env[`CONNECTOR_${upper}_AUTH_SECRET_ID`],
    org: env[`CONNECTOR_${upper}_ORG`] ?? null,
  };
}
