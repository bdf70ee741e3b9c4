// Helpers every benchmark shares: its parameters and its percentiles.

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
