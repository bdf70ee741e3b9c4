import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

/** Where the SDK's exporter answered in a fresh process started with TEMPORAL_SDK_METRICS_PORT = `setting`. */
async function exporterWith(setting: string): Promise<{ url?: string; status?: number }> {
  const root = path.resolve(__dirname, '..');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(root, 'test/integration/ts-entry.js'), path.join(root, 'test/sdk-metrics-probe.ts'), setting],
    { cwd: root, timeout: 60_000 },
  );
  return JSON.parse(stdout) as { url?: string; status?: number };
}

async function unusedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('TEMPORAL_SDK_METRICS_PORT: the exporter listens on the port given, on loopback', async () => {
  const port = await unusedPort();
  expect(await exporterWith(String(port))).toEqual({ url: `http://127.0.0.1:${port}/metrics`, status: 200 });
});

test('TEMPORAL_SDK_METRICS_PORT=0 picks a free loopback port; off opens none', async () => {
  const picked = await exporterWith('0');
  expect(picked.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
  expect(picked.status).toBe(200);
  expect(await exporterWith('off')).toEqual({});
});
