// Helpers every benchmark shares: its parameters, its percentiles and a keep-alive HTTP load.
import { Agent, request } from 'node:http';

/** `--name=value` from argv, else BENCH_<NAME>, else the default; an integer of at least `min`. */
export function param(name: string, fallback: number, min = 1): number {
  const flag = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  const raw = flag?.slice(name.length + 3) ?? process.env[`BENCH_${name.toUpperCase()}`] ?? String(fallback);
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

/** Nearest-rank percentile of ascending samples. */
export function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
}

/**
 * `requests` GETs of `path` on `base` (after `warmup` unmeasured ones), `concurrency` at a time on keep-alive sockets;
 * an answer other than 200 fails the run. Latencies in milliseconds.
 */
export async function loadGets(
  base: URL,
  path: string,
  headers: Record<string, string>,
  { requests, concurrency, warmup }: { requests: number; concurrency: number; warmup: number },
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = request({ host: base.hostname, port: base.port, path, agent, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${path} answered ${res.statusCode}`));
          else resolve(Number(process.hrtime.bigint() - started) / 1e6);
        });
      });
      req.on('error', reject);
      req.end();
    });
  const run = async (count: number) => {
    const samples: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < count) {
        next += 1;
        samples.push(await once());
      }
    };
    const started = process.hrtime.bigint();
    await Promise.all(Array.from({ length: concurrency }, worker));
    return { samples, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
  };
  await run(warmup);
  const { samples, seconds } = await run(requests);
  agent.destroy();
  samples.sort((a, b) => a - b);
  return { rps: samples.length / seconds, p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) };
}

/** One row of a load table: `label | req/s | p50 ms | p99 ms`. */
export function loadRow(label: string, { rps, p50, p99 }: LoadResult): string {
  return `${label} | ${rps.toFixed(0)} | ${p50.toFixed(2)} | ${p99.toFixed(2)}`;
}

/** True when the bench was run with `--json`: it then ends its output with one JSON object of its figures. */
export function wantsJson(): boolean {
  return process.argv.includes('--json');
}

/** With `--json`, prints `figures` as the last line of output (one JSON object, numbers rounded to 0.01). */
export function printJson(bench: string, figures: Record<string, unknown>): void {
  if (!wantsJson()) return;
  const round = (_key: string, value: unknown) =>
    typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 100) / 100 : value;
  console.log(JSON.stringify({ bench, ...figures }, round));
}
