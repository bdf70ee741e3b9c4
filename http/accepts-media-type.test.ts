import { acceptsMediaType } from './accepts-media-type';

const SSE = 'text/event-stream';

test.each([
  [undefined, 'no header (RFC 9110: any type)'],
  ['', 'an empty header'],
  ['*/*', "curl's, Node fetch's and requests' default"],
  ['text/*', 'a type range'],
  [SSE, "EventSource's"],
  ['TEXT/Event-Stream', 'the type in another case'],
  ['application/json, text/*;q=0.5', 'a lower but non-zero quality'],
  ['*/*;q=0.1, application/json', 'a wildcard of low quality beside another type'],
  ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', "a browser's navigation"],
])('%p admits the event stream (%s)', (accept: string | undefined, _why: string) => {
  expect(acceptsMediaType(accept, SSE)).toBe(true);
});

test.each([
  ['application/json', 'another type only'],
  ['text/event-stream;q=0, */*', 'the type refused by q=0, even beside a wildcard'],
  ['*/*;q=0', 'every type refused'],
  ['text/html', 'another type of the same family'],
  ['garbage', 'a header that names no media range'],
])('%p refuses the event stream (%s)', (accept: string, _why: string) => {
  expect(acceptsMediaType(accept, SSE)).toBe(false);
});
