import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';

/**
 * CONSOLE_ORG_ID: the org whose token the console acts with, registered by `npm start` and `keel migrate`. The ingest
 * API scopes every request to the token's org, so one console serves one org: a deployment with several orgs runs one
 * console per org, each with a CONSOLE_API_TOKEN of its own (docs/console.md). Default `dev`, the org of the CLI's dev
 * token under `npm start`, so an admin in the console sees what the CLI submits.
 */
export const consoleOrgId = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .regex(/^\S{1,128}$/, 'an org id: 1 to 128 characters without whitespace')
    .default('dev'),
);
