import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../http/errors';
import { ErrorSchema } from './chat';
import { named } from '../../http/named-plugin';

/**
 * The retired self-hosted inference stack's probe and wake endpoints. Nothing routes there any more: an old client gets
 * 410 with the same error shape as every other refusal, naming what replaced them, rather than a bare 404.
 */
export const localinfRoutes: FastifyPluginAsync = named('localinfRoutes', async (app) => {
  const retired = () => {
    throw new AppError(
      410,
      'localinf_retired',
      'the /v1/localinf endpoints are retired: local models are a `local` provider in the model catalog ' +
        '(GET /v1/models shows whether it is configured; `keel models doctor local` diagnoses it)',
    );
  };
  // Only a refusal is declared: the document says these never succeed.
  const schema = { response: { 410: ErrorSchema } };
  app.all('/v1/localinf', { schema }, retired);
  app.all('/v1/localinf/*', { schema }, retired);
});
