export interface ReadinessCheck {
  name: string;
  /**
   * Resolves to null when ready, or to the reason it is not; throws (or times out) when it cannot tell, e.g. while a
   * dependency it asks is unreachable.
   */
  check(): Promise<string | null>;
  /**
   * A start-up self-check (issue 43): run once as the process starts, its failure logged naming the cause. `fatal`: a
   * process failing it cannot work at all, so a worker (which readiness does not keep from polling) exits 78 instead
   * of taking tasks; an API stays up, not ready, and /readyz names the cause.
   */
  selfCheck?: 'fatal' | 'report';
}

export interface SelfCheckOutcome {
  /** Every self-check that failed or could not tell, by name. */
  failed: Record<string, string>;
  /** The fatal ones that decided the process cannot work (a reason returned, not an unreachable dependency). */
  fatal: Record<string, string>;
}

export interface Readiness {
  add(check: ReadinessCheck): void;
  /** Readiness turns false for good once shutdown begins, so the load balancer drains us first. */
  startDraining(): void;
  evaluate(): Promise<{ ready: boolean; reasons: Record<string, string> }>;
  /** Runs the start-up self-checks once (scripts/platform.ts logs them, and a worker exits on a fatal one). */
  selfCheck(): Promise<SelfCheckOutcome>;
}

interface Result {
  reason: string | null;
  /** False when the check threw or timed out: it could not tell. */
  decided: boolean;
}

function withTimeout(p: Promise<string | null>, ms: number, name: string): Promise<Result> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ reason: `${name} check timed out after ${ms} ms`, decided: false }), ms);
    p.then(
      (reason) => resolve({ reason, decided: true }),
      (err: unknown) => resolve({ reason: err instanceof Error ? err.message : String(err), decided: false }),
    ).finally(() => clearTimeout(timer));
  });
}

export function createReadiness(timeoutMs = 2000): Readiness {
  const checks: ReadinessCheck[] = [];
  let draining = false;
  const run = async (selected: ReadinessCheck[]) =>
    (await Promise.all(selected.map((c) => withTimeout(c.check(), timeoutMs, c.name)))).map((r, i) => ({
      ...r,
      check: selected[i]!,
    }));
  const failures = (results: Awaited<ReturnType<typeof run>>) =>
    Object.fromEntries(results.flatMap((r) => (r.reason === null ? [] : [[r.check.name, r.reason]])));
  return {
    add: (check) => void checks.push(check),
    startDraining: () => {
      draining = true;
    },
    async evaluate() {
      if (draining) return { ready: false, reasons: { shutdown: 'shutting down' } };
      const reasons: Record<string, string> = failures(await run(checks));
      return { ready: Object.keys(reasons).length === 0, reasons };
    },
    async selfCheck() {
      const results = await run(checks.filter((c) => c.selfCheck !== undefined));
      return {
        failed: failures(results),
        fatal: failures(results.filter((r) => r.decided && r.check.selfCheck === 'fatal')),
      };
    },
  };
}

/** The body of /readyz (the API's, and a worker's metrics listener's): 200 ready, or 503 naming each cause. */
export async function readinessAnswer(readiness: Readiness): Promise<{ status: 200 | 503; body: object }> {
  const { ready, reasons } = await readiness.evaluate();
  return ready
    ? { status: 200, body: { status: 'ready' } }
    : { status: 503, body: { status: 'not ready', error: Object.values(reasons).join('; '), reasons } };
}
