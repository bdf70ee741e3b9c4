/**
 * The SSE comment an open job stream ends with when the API stops: a client that reads it knows the job goes on and
 * that it reattaches with Last-Event-ID, instead of taking the closed connection for a failure.
 */
export const STREAM_STOPPING_COMMENT = 'keel is stopping; reconnect with Last-Event-ID';

/**
 * The SSE comment a job stream ends with when a dependency failed under it (the database went away mid-stream): the
 * job is not over, and a client reconnecting with Last-Event-ID after a pause resumes where it was.
 */
export const STREAM_INTERRUPTED_COMMENT = 'keel could not go on reading this stream; reconnect with Last-Event-ID';
