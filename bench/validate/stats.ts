export function percentile(sortedMs: readonly number[], p: number): number {
  if (sortedMs.length === 0) return NaN;
  const index = Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1);
  return sortedMs[Math.max(0, index)] ?? NaN;
}

export function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export interface LatencySummary {
  p50: number;
  p99: number;
  max: number;
  resourcesPerSecond: number;
}

/** Latencies of calls that each carry `resourcesPerCall` resources. */
export function summarize(latenciesMs: number[], resourcesPerCall: number): LatencySummary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const total = latenciesMs.reduce((sum, ms) => sum + ms, 0);
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? NaN,
    resourcesPerSecond: (latenciesMs.length * resourcesPerCall) / (total / 1000),
  };
}

export function line(text: string): void {
  process.stdout.write(`${text}\n`);
}
