/** Small statistics helpers for the benchmark scripts. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx] as number;
}

export const median = (values: number[]) => percentile(values, 50);

export const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
