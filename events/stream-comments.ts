/**
 * The SSE comment an open job stream ends with when the API stops: a client that reads it knows the job goes on and
 * that it reattaches with Last-Event-ID, instead of taking the closed connection for a failure.
 */
export const STREAM_STOPPING_COMMENT = 'keel is stopping; reconnect with Last-Event-ID';
