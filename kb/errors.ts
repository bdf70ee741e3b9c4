import { AppError } from '../http/errors';

/** The hub's failures that reach an API client, with their place in the contract (docs/knowledge-hub.md). */
export class KbUnavailableError extends AppError {
  override name = 'KbUnavailableError';
  constructor(message: string) {
    super(503, 'kb_unavailable', message);
  }
}

/** The embedder (telemetry service or local server) failed or timed out after its retries. */
export class EmbedderUnavailableError extends AppError {
  override name = 'EmbedderUnavailableError';
  constructor(message: string) {
    super(503, 'embedder_unavailable', message);
  }
}

/** The stored vectors were made by another embedder than the configured one. */
export class ReembedRequiredError extends AppError {
  override name = 'ReembedRequiredError';
  constructor(stored: string, configured: string) {
    super(
      409,
      'reembed_required',
      `the knowledge index holds vectors from ${stored} but the configured embedder is ${configured}: ` +
        'run `npx keel kb reembed` to rebuild the vectors, or switch EMBEDDING_PROVIDER/EMBEDDING_MODEL back',
    );
  }
}

export class InvalidDocumentError extends AppError {
  override name = 'InvalidDocumentError';
  constructor(message: string) {
    super(400, 'invalid_document', message);
  }
}
