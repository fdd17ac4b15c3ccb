// Order statistics over samples in milliseconds, rounded for the report.

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  min: number;
  max: number;
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN;
}

export function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

export function summarize(samples: number[]): Summary {
  return {
    n: samples.length,
    p50: round(median(samples)),
    p99: round(percentile(samples, 0.99)),
    min: round(Math.min(...samples)),
    max: round(Math.max(...samples)),
  };
}
