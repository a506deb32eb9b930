// The arithmetic of the benchmark: medians over repeated runs and ratios between measurements of
// the same run, which hold on a noisy machine where absolute times do not.

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

export const ratio = (value: number, base: number): number => (base > 0 ? value / base : Number.NaN);

/** Milliseconds as seconds with one decimal, for tables. */
export const seconds = (ms: number): string => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : 'n/a');
export const times = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)}x` : 'n/a');
