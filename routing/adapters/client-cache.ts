/**
 * One vendor client per (base URL, key), reused across calls so connections are pooled. The cache grows with
 * the catalog's providers and their keys, which are few; a rotated key gets a fresh client.
 */
export function clientCache<T>(create: (baseUrl: string, apiKey: string | undefined) => T) {
  const clients = new Map<string, T>();
  return (baseUrl: string, apiKey: string | undefined): T => {
    const key = JSON.stringify([baseUrl, apiKey ?? null]);
    let client = clients.get(key);
    if (client === undefined) {
      client = create(baseUrl, apiKey);
      clients.set(key, client);
    }
    return client;
  };
}

/** How long one vendor call may take before it counts as unavailable; long thinking turns need minutes. */
export const CALL_TIMEOUT_MS = 10 * 60 * 1000;
