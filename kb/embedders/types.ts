/** What made a vector: recorded with every vector and checked by the re-embed guard. */
export interface EmbedderIdentity {
  provider: string;
  model: string;
  dims: number;
}

export type EmbedPurpose = 'document' | 'query';

export interface Embedder {
  /** The identity, asking the provider for its dimensions once if they are not known yet. */
  identity(): Promise<EmbedderIdentity>;
  /**
   * One vector per text, in order. Throws EmbedderUnavailableError when the provider fails after its retries;
   * never returns a vector of another length than `identity().dims`.
   */
  embed(texts: readonly string[], purpose: EmbedPurpose): Promise<number[][]>;
}

export function describeIdentity(identity: EmbedderIdentity): string {
  return `${identity.provider}/${identity.model} (${identity.dims} dimensions)`;
}
