/**
 * Absolute server paths in a message a client reads (a job's `error` event, its stored error), reduced to their last
 * segment: `/srv/keel/scenarios/nope.yaml: …` becomes `nope.yaml: …`. A failure's message may come from any library an
 * activity called (Node's fs errors name the full path), and the server's folder layout is not the client's to read.
 * A URL's path is left alone: a path counts only when nothing but a space, a quote or a bracket precedes it.
 */
export function withoutServerPaths(message: string): string {
  return message.replace(/(^|[\s'"`(\[=,])\/(?:[^\s/'"`()\[\],:]+\/)+([^\s/'"`()\[\],:]+)/g, '$1$2');
}
