import type { KnowledgeHub } from '../kb/hub';
import { openHub } from '../kb/open-hub';
import type { createClosers } from './closers';

/**
 * The knowledge hub a process serves, closed with the process. A hub that cannot serve (no pgvector, an unreachable
 * hub repository) is a warning, not a failed start: only the tools and routes that read it say so.
 */
export async function openProcessHub(
  closers: ReturnType<typeof createClosers>,
  input: Parameters<typeof openHub>[0],
  warn: (line: string) => void,
): Promise<KnowledgeHub> {
  const { hub, warning } = await openHub(input);
  closers.add(hub, (h) => h.close());
  if (warning) warn(`warning: ${warning}`);
  return hub;
}
