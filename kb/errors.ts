import { Refusal } from '../refusals/refusal';

/** The hub's refusals that reach an API client, each of a kind the edges answer in their own way (docs/knowledge-hub.md). */
export class KbUnavailableError extends Refusal {
  override name = 'KbUnavailableError';
  constructor(message: string) {
    super('unavailable', 'kb_unavailable', message);
  }
}

/** The embedder (telemetry service or local server) failed or timed out after its retries. */
export class EmbedderUnavailableError extends Refusal {
  override name = 'EmbedderUnavailableError';
  constructor(message: string) {
    super('unavailable', 'embedder_unavailable', message);
  }
}

/** The stored vectors were made by another embedder than the configured one. */
export class ReembedRequiredError extends Refusal {
  override name = 'ReembedRequiredError';
  constructor(stored: string, configured: string) {
    super(
      'conflict',
      'reembed_required',
      `the knowledge index holds vectors from ${stored} but the configured embedder is ${configured}: ` +
        'run `npx keel kb reembed` to rebuild the vectors, or switch EMBEDDING_PROVIDER/EMBEDDING_MODEL back',
    );
  }
}

export class InvalidDocumentError extends Refusal {
  override name = 'InvalidDocumentError';
  constructor(message: string) {
    super('invalid', 'invalid_document', message);
  }
}
