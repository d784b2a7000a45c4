import { writeFileSync, mkdirSync } from 'node:fs';
import { cpus } from 'node:os';

/** Writes a benchmark's figures to bench/results/<name>.json and prints them (unless print is false). */
export function report(
  name: string,
  figures: Record<string, unknown>,
  options: { print?: boolean } = {},
): void {
  const result = {
    name,
    at: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    ...figures,
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(`bench/results/${name}.json`, JSON.stringify(result, null, 2) + '\n');
  if (options.print !== false) console.log(JSON.stringify(result, null, 2));
}

/** Percentile of a sorted-or-not sample (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}
