/**
 * `npm run openapi:client`: writes the ingest API's TypeScript types (cli/api-client/schema.ts) from its OpenAPI
 * document, for the typed client the CLI calls the API with. With `--check` it only compares (cli/api-client/schema.test.ts
 * runs that, so a route change without regenerating fails).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { ingestApiDocument } from './document';

export const SCHEMA_FILE = path.join(__dirname, 'schema.ts');

const HEADER = `/**
 * The ingest API's paths, operations and bodies as TypeScript types, generated from its OpenAPI document by
 * openapi-typescript. Do not edit: run \`npm run openapi:client\` after changing a route.
 */
`;

/** The source of cli/api-client/schema.ts for the routes as they are now. */
export async function schemaSource(): Promise<string> {
  const document = (await ingestApiDocument()) as Parameters<typeof openapiTS>[0];
  const source = HEADER + astToString(await openapiTS(document));
  // Formatted as the rest of the code is, so `prettier --check` passes on the committed file.
  return format(source, { ...(await resolveConfig(SCHEMA_FILE)), filepath: SCHEMA_FILE });
}

// Run as a script (directly, or through the test TypeScript loader), not when imported. `--check` writes nothing and
// fails when the committed file differs from what the routes give.
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === __filename) {
  const check = process.argv.includes('--check');
  schemaSource()
    .then(async (source) => {
      const relative = path.relative(process.cwd(), SCHEMA_FILE);
      if (!check) {
        await fs.writeFile(SCHEMA_FILE, source);
        console.log(`wrote ${relative}`);
      } else if ((await fs.readFile(SCHEMA_FILE, 'utf8')) !== source) {
        console.error(`${relative} does not match the routes: run \`npm run openapi:client\``);
        process.exitCode = 1;
      } else {
        console.log(`${relative} matches the routes`);
      }
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    });
}
