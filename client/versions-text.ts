/** One version change as the API answers it (src/deployments/version-change.ts computes it). */
export interface VersionChangeText {
  tenant: string;
  workload: string;
  from: string | null;
  to: string;
  direction: string;
}

const FLAGGED = new Set(['downgrade', 'not-comparable']);

/**
 * `acme/web 1.5.0 -> 1.4.0 (downgrade)` per change, `; `-joined: the one text form (CLI, notifications, audit), here
 * beside the API's types so the CLI and the server share it without the CLI importing src/.
 */
export function versionsText(versions: readonly VersionChangeText[]): string {
  return versions
    .map(
      (v) =>
        `${v.tenant}/${v.workload} ${v.from ?? '(unknown)'} -> ${v.to}${FLAGGED.has(v.direction) ? ` (${v.direction})` : ''}`,
    )
    .join('; ');
}
