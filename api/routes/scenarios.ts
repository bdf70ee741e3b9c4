import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ConfigFileError } from '../../config/config-file';
import { Unavailable } from '../../refusals/refusal';
import { listScenarios, loadScenario } from '../../scenarios/load';
import type { ApiDeps } from '../deps';
import { ErrorSchema } from './chat';

/** The scenario a submission without one runs (workflows/job.ts DEFAULT_SCENARIO; a `#build` prompt picks product). */
const DEFAULT_SCENARIO = 'build';

export const ScenarioListingSchema = z.object({
  name: z.string().describe('what `scenario` takes on POST /v1/workflows, /v1/workflows/{id}/prompts and /v1/chat'),
  description: z.string(),
  default: z.boolean().describe('the scenario a submission without `scenario` runs'),
  chain: z.string().nullable().describe('the scenario the job continues with after this one succeeds'),
});

/**
 * GET /v1/scenarios: the names a submission accepts (the shipped scenario files), so a form can offer them instead of a
 * free-text field whose valid values appear only in the 400. A file that does not load is left out: submitting it
 * would fail the job.
 */
export function scenarioRoutes(_deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/scenarios',
      { schema: { response: { 200: z.object({ scenarios: z.array(ScenarioListingSchema) }), 503: ErrorSchema } } },
      async (request) => {
        const names = await listScenarios().catch((err: unknown) => {
          if (err instanceof ConfigFileError) throw new Unavailable('scenarios_unavailable', err.publicMessage());
          throw err;
        });
        const loaded = await Promise.all(
          names.map((name) =>
            loadScenario(name).catch((err: unknown) => {
              if (!(err instanceof ConfigFileError)) throw err;
              request.log.warn({ scenario: name, problem: err.publicMessage() }, 'scenario left out of the list');
              return null;
            }),
          ),
        );
        return {
          scenarios: loaded
            .filter((s) => s !== null)
            .map((s) => ({
              name: s.name,
              description: s.description,
              default: s.name === DEFAULT_SCENARIO,
              chain: s.chain?.scenario ?? null,
            })),
        };
      },
    );
    return Promise.resolve();
  };
}
