/**
 * Where a worker's workflow code comes from. Production workers run the prebuilt bundle `npm run build` writes;
 * bundling workflows/ from source takes seconds per worker and is for development and tests, on request only.
 */
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { projectRoot } from '../config/paths';

/** `dist/workflow-bundle.js` under the project root: where `npm run build` writes the bundle and workers look. */
export function defaultWorkflowBundlePath(): string {
  return path.join(projectRoot(), 'dist', 'workflow-bundle.js');
}

/**
 * Bundles workflows/ from source, as `npm run build` does; the result is the bundle's code. `workflowsPath` names
 * another entry (the deploy drill's changed workflows) bundled the same way.
 */
export async function bundleWorkflows(workflowsPath: string = require.resolve('../workflows')): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath,
    // Workflow and child-workflow spans, and trace context handed on to activities and children through headers.
    workflowInterceptorModules: [require.resolve('../workflows/tracing')],
    logger: new DefaultLogger('WARN'),
  });
  return code;
}
