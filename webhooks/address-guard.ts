/**
 * The SSRF guard of webhook endpoints: a URL whose host resolves to anything but a public unicast address (loopback,
 * private, link-local, unique-local, carrier-grade NAT, multicast, reserved, unspecified) is refused unless its host is
 * in WEBHOOK_ALLOW_HOSTS. Checked when a submission names the URL and again at every delivery attempt, on the address
 * the connection is actually made to (DNS may have changed in between).
 */
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** A URL or address the guard refuses; the message says why, never anything secret. */
export class WebhookAddressRefused extends Error {
  override name = 'WebhookAddressRefused';
}

/** The URL's host as WEBHOOK_ALLOW_HOSTS spells it: lower case, an IPv6 literal without its brackets. */
export function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

export function isAllowedHost(url: URL, allowHosts: readonly string[]): boolean {
  return allowHosts.includes(hostOf(url));
}

/** True for a public unicast address only; an IPv4-mapped IPv6 address is judged as the IPv4 address it maps. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** Every address `host` resolves to (an IP literal is itself). Throws WebhookAddressRefused when it resolves to none. */
async function addressesOf(host: string): Promise<string[]> {
  if (ipaddr.isValid(host)) return [host];
  try {
    const found = await dns.promises.lookup(host, { all: true, verbatim: true });
    return found.map((entry) => entry.address);
  } catch (err) {
    throw new WebhookAddressRefused(`${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/**
 * Refuses (throws WebhookAddressRefused) a URL whose host resolves to any non-public address, unless the host is
 * allowed. Every address counts, so a name with one public and one private address is refused.
 */
export async function checkWebhookAddress(url: URL, allowHosts: readonly string[]): Promise<void> {
  if (isAllowedHost(url, allowHosts)) return;
  const host = hostOf(url);
  for (const address of await addressesOf(host)) {
    if (!isPublicAddress(address)) {
      throw new WebhookAddressRefused(`${host} resolves to ${address}, a loopback or private address`);
    }
  }
}

/**
 * A `lookup` for http(s).request that resolves as usual and fails the connection when the address it would connect to
 * is not public, so a name re-pointed at a private address after the submission's check is still refused.
 */
export function guardedLookup(): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses;
      const refused = list.find((entry) => !isPublicAddress(entry.address));
      if (refused) {
        return callback(
          new WebhookAddressRefused(`${hostname} resolves to ${refused.address}, a loopback or private address`),
          '',
          0,
        );
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
