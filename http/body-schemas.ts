/**
 * Response declarations for bodies that are not JSON: a file's bytes, an event stream, an HTML page, a redirect. The
 * document then says what such a route answers; Fastify never serializes these bodies (they are sent as bytes,
 * strings or streams), so the schemas describe without changing a byte.
 */
import { z } from 'zod';

const Bytes = z.string().meta({ format: 'binary' });

/** A file's bytes under `mediaType` (`*\/*`: whatever type the file was stored with). */
export function bytesResponse(description: string, mediaType = 'application/octet-stream') {
  return { description, content: { [mediaType]: { schema: Bytes } } };
}

/** A `text/event-stream` that stays open: `id:` and `data:` frames, each `data:` one JSON object. */
export function eventStreamResponse(description: string) {
  return { description, content: { 'text/event-stream': { schema: z.string() } } };
}

/** An HTML page. */
export function pageResponse(description: string) {
  return { description, content: { 'text/html': { schema: z.string() } } };
}

/** A redirect: no body, the `Location` header says where. */
export function redirectResponse(description: string) {
  return { description, content: {} };
}
