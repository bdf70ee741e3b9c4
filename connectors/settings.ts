import { z } from 'zod';
import { ConfigError, parseEnv } from '../config/parse-env';
import { connectorsEnv, CONNECTOR_NAMES, scheduleSettings, type ConnectorsEnv } from './config';
import type { ConnectorName } from './contract';
import { githubEnv, type GithubEnv } from './github/config';
import { NotionEnvSchema, type NotionConfig } from './notion/config';
import { SlackEnvSchema, type SlackConfig } from './slack/config';

/** A connector's own settings as parsed at start: usable, or the message its run fails with. */
export type ConnectorSettings<T> = { ok: true; value: T } | { ok: false; error: string };

export interface ConnectorsConfig {
  /** Schedules, enabled flags, auth secret ids, the hub to clone. */
  shared: ConnectorsEnv;
  /** Each connector's own variables (workspace, channels, repositories…). */
  notion: ConnectorSettings<NotionConfig>;
  slack: ConnectorSettings<SlackConfig>;
  github: ConnectorSettings<GithubEnv>;
}

const OWN_SCHEMAS = { notion: NotionEnvSchema, slack: SlackEnvSchema, github: githubEnv } as const;

function settingsOf<T>(schema: z.ZodType<T>, env: NodeJS.ProcessEnv, name: ConnectorName): ConnectorSettings<T> {
  try {
    return { ok: true, value: parseEnv(schema, env, `${name} connector`) };
  } catch (err) {
    if (err instanceof ConfigError) return { ok: false, error: err.message };
    throw err;
  }
}

/**
 * The connectors' slice of a process's config, parsed once at start. A bad shared variable is a bad configuration; so
 * is a bad variable of an enabled connector (its schedule would fail every run). A disabled connector's own settings
 * may be missing: they are kept as the message a manual run (`keel connector run`, a triggered run) fails with.
 */
export const connectorsConfig = z.custom<NodeJS.ProcessEnv>().transform((env, ctx): ConnectorsConfig => {
  const shared = connectorsEnv.safeParse(env);
  if (!shared.success) {
    for (const issue of shared.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  }
  const settings = {
    notion: settingsOf(OWN_SCHEMAS.notion, env, 'notion'),
    slack: settingsOf(OWN_SCHEMAS.slack, env, 'slack'),
    github: settingsOf(OWN_SCHEMAS.github, env, 'github'),
  };
  for (const name of CONNECTOR_NAMES) {
    if (!scheduleSettings(shared.data, name).enabled || settings[name].ok) continue;
    const issues = OWN_SCHEMAS[name].safeParse(env).error?.issues ?? [];
    for (const issue of issues) {
      ctx.addIssue({
        code: 'custom',
        path: issue.path,
        message: `${issue.message} (CONNECTOR_${name.toUpperCase()}_ENABLED is true)`,
      });
    }
  }
  return { shared: shared.data, ...settings };
});

/** A connector's settings, or the ConfigError its run fails with (a permanent failure: an operator must fix it). */
export function settingsOrThrow<T>(settings: ConnectorSettings<T>): T {
  if (settings.ok) return settings.value;
  throw new ConfigError(settings.error);
}
