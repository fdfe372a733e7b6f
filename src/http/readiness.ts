export interface ReadinessCheck {
  name: string;
  /** Resolves to null when ready, or to the reason it is not. */
  check(): Promise<string | null>;
}

export interface Readiness {
  add(check: ReadinessCheck): void;
  /** Readiness turns false for good once shutdown begins, so the load balancer drains us first. */
  startDraining(): void;
  evaluate(): Promise<{ ready: boolean; reasons: Record<string, string> }>;
}

function withTimeout(p: Promise<string | null>, ms: number, name: string): Promise<string | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(`${name} check timed out after ${ms} ms`), ms);
    p.then(
      (v) => resolve(v),
      (err: unknown) => resolve(err instanceof Error ? err.message : String(err)),
    ).finally(() => clearTimeout(timer));
  });
}

export function createReadiness(timeoutMs = 2000): Readiness {
  const checks: ReadinessCheck[] = [];
  let draining = false;
  return {
    add: (check) => void checks.push(check),
    startDraining: () => {
      draining = true;
    },
    async evaluate() {
      if (draining) return { ready: false, reasons: { shutdown: 'shutting down' } };
      const results = await Promise.all(checks.map((c) => withTimeout(c.check(), timeoutMs, c.name)));
      const reasons: Record<string, string> = {};
      results.forEach((reason, i) => {
        const check = checks[i];
        if (reason !== null && check) reasons[check.name] = reason;
      });
      return { ready: Object.keys(reasons).length === 0, reasons };
    },
  };
}
