import { z } from 'zod';
import { emptyAsUndefined, parseEnv } from '../../config/parse-env';
import { SensitivitySchema } from '../../kb/sensitivity';

export const NotionEnvSchema = z.object({
  /** Directory under sources/notion/; a path segment, so lower-case letters, digits and dashes. */
  CONNECTOR_NOTION_WORKSPACE_SLUG: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'a slug: lower-case letters, digits and dashes, e.g. "acme"'),
  /** Every page gets this level. Required, never defaulted: a missing level must not read as public. */
  CONNECTOR_NOTION_DEFAULT_SENSITIVITY: SensitivitySchema,
  NOTION_API_URL: z.preprocess(emptyAsUndefined, z.url().default('https://api.notion.com')),
  /** The secret id of the integration token; the token itself lives in the secrets store. */
  CONNECTOR_NOTION_AUTH_SECRET_ID: z.string().min(1),
});
export type NotionConfig = z.infer<typeof NotionEnvSchema>;

export function loadNotionConfig(env: NodeJS.ProcessEnv): NotionConfig {
  return parseEnv(NotionEnvSchema, env, 'notion connector');
}
