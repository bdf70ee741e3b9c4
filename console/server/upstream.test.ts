import { networkErrorCode, relayableHeaders, UpstreamUnreachableError } from './upstream';

describe('networkErrorCode', () => {
  test('finds the code on the error, in an AggregateError, or in its cause', () => {
    expect(networkErrorCode(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe('ECONNREFUSED');
    const aggregate = new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })], 'all failed');
    expect(networkErrorCode(aggregate)).toBe('ECONNREFUSED');
    const wrapped = new TypeError('fetch failed', {
      cause: Object.assign(new Error('t'), { code: 'UND_ERR_CONNECT_TIMEOUT' }),
    });
    expect(networkErrorCode(wrapped)).toBe('UND_ERR_CONNECT_TIMEOUT');
    expect(networkErrorCode(Object.assign(new Error('dns'), { code: 'EAI_AGAIN' }))).toBe('EAI_AGAIN');
  });

  test('is undefined for anything that is not a network failure', () => {
    expect(networkErrorCode(new TypeError('undefined is not a function'))).toBeUndefined();
    expect(networkErrorCode(Object.assign(new Error('x'), { code: 'ERR_INVALID_ARG_TYPE' }))).toBeUndefined();
    expect(networkErrorCode('ECONNREFUSED')).toBeUndefined();
  });
});

test('a connect timeout is a 504, a refused connection a 502, and the message names the code', () => {
  const timeout = new UpstreamUnreachableError('identity service', 'UND_ERR_CONNECT_TIMEOUT', 'http://auth:8080');
  expect(timeout.statusCode).toBe(504);
  expect(timeout.code).toBe('identity_unreachable');
  const refused = new UpstreamUnreachableError('ingest API', 'ECONNREFUSED', 'http://api:3000');
  expect(refused.statusCode).toBe(502);
  expect(refused.message).toBe('the ingest API at http://api:3000 could not be reached (ECONNREFUSED)');
});

test('hop-by-hop headers are not relayed; cookies and caching headers are', () => {
  expect(
    relayableHeaders({
      connection: 'keep-alive',
      'transfer-encoding': 'chunked',
      'content-length': '12',
      'set-cookie': ['a=1', 'b=2'],
      'cache-control': 'no-cache',
    }),
  ).toEqual({ 'set-cookie': ['a=1', 'b=2'], 'cache-control': 'no-cache' });
});
