import http from 'node:http';
import { createBaseApp } from './base-app';

/**
 * A client still sending a large body when the server has already answered (here a 429 from a hook that runs before
 * the body is read, as the sign-in rate limit does) must have its connection closed, or the socket waits out the
 * keep-alive timeout and the service's shutdown waits with it.
 */
test('an answer sent before the body has arrived closes the connection, and the service then closes at once', async () => {
  const app = createBaseApp({ title: 'test', description: 'an early answer' }, { logger: false });
  app.post('/limited', {
    onRequest: async (_request, reply) =>
      reply.code(429).send({ error: { code: 'rate_limited', message: 'slow down' } }),
    handler: async () => ({ ok: true }),
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });

  const request = http.request(`${url}/limited`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
  });
  request.on('error', () => undefined); // the write after the server closed (EPIPE) is the point of the test
  const answered = new Promise<http.IncomingMessage>((resolve) => request.on('response', resolve));
  const socketClosed = new Promise<void>((resolve) => request.on('close', resolve));
  // Far more than the socket buffers hold, so the client is still sending when the answer comes.
  const piece = Buffer.alloc(64 * 1024, 'a');
  void (async () => {
    for (let sent = 0; sent < 50 * 1024 * 1024 && !request.destroyed; sent += piece.length) {
      if (!request.write(piece)) await Promise.race([new Promise((r) => request.once('drain', r)), socketClosed]);
    }
  })();

  try {
    const response = await answered;
    response.resume();
    expect(response.statusCode).toBe(429);
    // Without it the socket stayed open for the 72 s keep-alive timeout, and app.close() waited for it.
    expect(response.headers.connection).toBe('close');
    await socketClosed;
  } finally {
    app.server.closeAllConnections(); // so a failure above does not hold the run for that timeout
    await app.close();
  }
});
