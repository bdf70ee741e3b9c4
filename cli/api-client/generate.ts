/**
 * `npm run openapi:client`: writes the TypeScript types of each service's OpenAPI document (the ingest API's
 * clients/schema.ts, the identity service's clients/identity-schema.ts, the console's clients/console-schema.ts), for
 * the typed clients in clients/client.ts that the CLI and the console share. With `--check` it only compares (cli/api-client/schema.test.ts runs that, so a route change
 * without regenerating fails).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { consoleDocument, identityDocument, ingestApiDocument } from './document';

interface Generated {
  file: string;
  service: string;
  document: () => Promise<unknown>;
}

/** The shared clients' folder, beside the CLI and the console that use them. */
const CLIENTS_DIR = path.join(__dirname, '..', '..', 'clients');

export const SCHEMA_FILES: Generated[] = [
  { file: path.join(CLIENTS_DIR, 'schema.ts'), service: "The ingest API's", document: ingestApiDocument },
  { file: path.join(CLIENTS_DIR, 'identity-schema.ts'), service: "The identity service's", document: identityDocument },
  { file: path.join(CLIENTS_DIR, 'console-schema.ts'), service: "The console's", document: consoleDocument },
];

const header = (service: string) => `/**
 * ${service} paths, operations and bodies as TypeScript types, generated from its OpenAPI document by
 * openapi-typescript. Do not edit: run \`npm run openapi:client\` after changing a route.
 */
`;

/** The source of one generated file for the routes as they are now. */
export async function schemaSource({ file, service, document }: Generated): Promise<string> {
  const source = header(service) + astToString(await openapiTS((await document()) as Parameters<typeof openapiTS>[0]));
  // Formatted as the rest of the code is, so `prettier --check` passes on the committed file.
  return format(source, { ...(await resolveConfig(file)), filepath: file });
}

// Run as a script (directly, or through the test TypeScript loader), not when imported. `--check` writes nothing and
// fails when a committed file differs from what the routes give.
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === __filename) {
  const check = process.argv.includes('--check');
  (async () => {
    for (const generated of SCHEMA_FILES) {
      const source = await schemaSource(generated);
      const relative = path.relative(process.cwd(), generated.file);
      if (!check) {
        await fs.writeFile(generated.file, source);
        console.log(`wrote ${relative}`);
      } else if ((await fs.readFile(generated.file, 'utf8').catch(() => '')) !== source) {
        console.error(`${relative} does not match the routes: run \`npm run openapi:client\``);
        process.exitCode = 1;
      } else {
        console.log(`${relative} matches the routes`);
      }
    }
  })().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
