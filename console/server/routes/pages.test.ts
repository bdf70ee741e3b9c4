import type { FastifyRequest } from 'fastify';
import { hasCookie, hostUnderDomain } from './pages';

const withCookie = (cookie?: string) => ({ headers: { cookie } }) as unknown as FastifyRequest;

test('the gate looks for a non-empty session cookie by exact name', () => {
  expect(hasCookie(withCookie('a=1; keel_session=abc.def'), 'keel_session')).toBe(true);
  expect(hasCookie(withCookie('keel_session_cache=abc'), 'keel_session')).toBe(false);
  expect(hasCookie(withCookie('keel_session='), 'keel_session')).toBe(false);
  expect(hasCookie(withCookie(undefined), 'keel_session')).toBe(false);
});

test('a host is under the cookie domain when it is the domain or a subdomain; localhost fits any host', () => {
  expect(hostUnderDomain('console.example.com', 'example.com')).toBe(true);
  expect(hostUnderDomain('example.com:3100', 'example.com')).toBe(true);
  expect(hostUnderDomain('console.example.org', 'example.com')).toBe(false);
  expect(hostUnderDomain('notexample.com', 'example.com')).toBe(false);
  expect(hostUnderDomain('127.0.0.1:3100', 'localhost')).toBe(true);
  expect(hostUnderDomain('anything', undefined)).toBe(true);
});
