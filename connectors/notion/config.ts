import { z } from 'zod';
import { emptyAsUndefined, parseEnv } from '../../config/parse-env';
import { MAX_LINKED_FILE_BYTES } from '../../kb/linked-files';
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
  /**
   * Notion-hosted files (bytes) up to this size are copied into the hub next to their page; larger ones keep their
   * signed link, which expires about an hour after the sync. At most the index's own cap (10 MiB); 0 copies nothing.
   */
  CONNECTOR_NOTION_MAX_FILE_BYTES: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number()
      .int()
      .min(0)
      .max(MAX_LINKED_FILE_BYTES)
      .default(5 * 1024 * 1024),
  ),
});
export type NotionConfig = z.infer<typeof NotionEnvSchema>;

export function loadNotionConfig(env: NodeJS.ProcessEnv): NotionConfig {
  return parseEnv(NotionEnvSchema, env, 'notion connector');
}
