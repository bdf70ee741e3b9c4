import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkWebhookAddress, guardedLookup, isPublicAddress, WebhookAddressRefused } from './address-guard';
import { postOnce } from './post';

test.each([
  '127.0.0.1',
  '10.0.0.1',
  '172.16.3.4',
  '192.168.0.10',
  '169.254.169.254',
  '100.64.0.1',
  '0.0.0.0',
  '224.0.0.1',
  '::1',
  '::',
  'fe80::1',
  'fd12:3456::1',
  '::ffff:10.0.0.1',
  '::ffff:127.0.0.1',
  'not an address',
])('%s is not a public address', (address) => {
  expect(isPublicAddress(address)).toBe(false);
});

test.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => {
  expect(isPublicAddress(address)).toBe(true);
});

test('a name that resolves to loopback is refused unless its host is allowed', async () => {
  const url = new URL('https://localhost/hook');
  await expect(checkWebhookAddress(url, [])).rejects.toThrow(WebhookAddressRefused);
  await expect(checkWebhookAddress(url, ['127.0.0.1'])).rejects.toThrow(/localhost resolves to/);
  await expect(checkWebhookAddress(url, ['localhost'])).resolves.toBeUndefined();
});

test('at delivery, the connection itself is refused when the name resolves to a private address', async () => {
  let reached = false;
  const server = http.createServer((_request, response) => {
    reached = true;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const url = new URL(`http://localhost:${port}/hook`);
    await expect(postOnce(url, '{}', {}, { timeoutMs: 5_000, lookup: guardedLookup() })).rejects.toThrow(
      WebhookAddressRefused,
    );
    expect(reached).toBe(false);
    // Without the guard (an allowed host) the same request goes through.
    await expect(postOnce(url, '{}', {}, { timeoutMs: 5_000 })).resolves.toBe(200);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
