/**
 * The workflow bundle's tracing interceptors: the Temporal SDK's OpenTelemetry ones, behind a patch. Their extra
 * awaits reorder a workflow's commands, so a run started without them (before tracing shipped) would fail replay with
 * them; `patched` keeps such runs untraced and traces every run started since. Queries and update validators are
 * read-only and never traced (a patch marker cannot be recorded there).
 */
import { patched, type WorkflowInterceptors } from '@temporalio/workflow';
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow';
import { LEAN_HISTORY_PATCH, TRACING_PATCH } from './patches';

export const interceptors = (): WorkflowInterceptors => {
  let traced: { inbound: OpenTelemetryInboundInterceptor; outbound: OpenTelemetryOutboundInterceptor } | undefined;
  let decided = false;
  // Decided at the run's first traced call (the SDK remembers a patch for the rest of the run); the interceptors are
  // made only then, so an untraced run creates no tracer and draws no span ids from the workflow's random source.
  const tracing = () => {
    if (!decided) {
      decided = true;
      // A lean run (LEAN_HISTORY_PATCH) is traced without asking TRACING_PATCH; this is the run's first patch question.
      if (patched(LEAN_HISTORY_PATCH) || patched(TRACING_PATCH))
        traced = { inbound: new OpenTelemetryInboundInterceptor(), outbound: new OpenTelemetryOutboundInterceptor() };
    }
    return traced;
  };
  return {
    inbound: [
      {
        execute: (input, next) => tracing()?.inbound.execute(input, next) ?? next(input),
        handleSignal: (input, next) => tracing()?.inbound.handleSignal(input, next) ?? next(input),
        handleUpdate: (input, next) => tracing()?.inbound.handleUpdate(input, next) ?? next(input),
      },
    ],
    outbound: [
      {
        scheduleActivity: (input, next) => tracing()?.outbound.scheduleActivity(input, next) ?? next(input),
        scheduleLocalActivity: (input, next) => tracing()?.outbound.scheduleLocalActivity(input, next) ?? next(input),
        startChildWorkflowExecution: (input, next) =>
          tracing()?.outbound.startChildWorkflowExecution(input, next) ?? next(input),
        continueAsNew: (input, next) => tracing()?.outbound.continueAsNew(input, next) ?? next(input),
        signalWorkflow: (input, next) => tracing()?.outbound.signalWorkflow(input, next) ?? next(input),
        // Log attributes may be asked for in a query: only a run already known to be traced adds its trace id.
        getLogAttributes: (input, next) => traced?.outbound.getLogAttributes(input, next) ?? next(input),
      },
    ],
    internals: [new OpenTelemetryInternalsInterceptor()],
  };
};
