import type { FastifyReply, FastifyRequest } from 'fastify';
import { TracedLogController } from '../../http/request-spans';

/**
 * The console's request log. A person closing a job tab ends its event stream mid-answer: that is how every stream
 * ends, so it is a debug line, not Fastify's warning "response terminated with an error" (a write to the closed
 * connection fails with ECONNRESET or EPIPE, or the relay's abort of the upstream read with UND_ERR_ABORTED). Told
 * apart by the browser's side: its connection is already gone. An upstream that fails mid-stream (the ingest API's
 * socket cut) fails while the browser is still connected, and keeps its warning.
 */
export class ConsoleLogController extends TracedLogController {
  override streamError(
    error: Error,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    const browserGone = request.raw.socket?.destroyed === true || reply.raw.destroyed;
    if (browserGone) {
      reply.log.debug({ code: (error as { code?: unknown }).code }, 'stream closed by the client');
      return;
    }
    super.streamError(error, request, reply, metadata);
  }
}
