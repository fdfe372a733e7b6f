/**
 * How a version change of a target reads, current -> proposed: an upgrade, a downgrade, no change, or not comparable
 * (a tag that is not a semantic version, such as `latest` or a commit hash: we flag it rather than guess).
 */
export type VersionDirection = 'upgrade' | 'downgrade' | 'unchanged' | 'not-comparable';

export interface VersionChange {
  tenant: string;
  workload: string;
  /** What the target runs now (null: nothing known, such as a first deploy or a row older than this field). */
  from: string | null;
  /** What it runs after. */
  to: string;
  direction: VersionDirection;
}

interface SemVer {
  core: [number, number, number];
  pre: string[];
}

// SemVer 2.0.0 (semver.org), with the `v` prefix image tags often carry; build metadata is ignored for precedence.
const SEMVER =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*)?$/;

function parseSemVer(tag: string): SemVer | null {
  const m = SEMVER.exec(tag);
  if (!m) return null;
  return { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ? m[4].split('.') : [] };
}

function compareIdentifiers(a: string, b: string): number {
  const na = /^\d+$/.test(a);
  const nb = /^\d+$/.test(b);
  if (na && nb) return Number(a) - Number(b);
  if (na !== nb) return na ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** SemVer precedence of two parsed versions (negative: a is older). */
function precedence(a: SemVer, b: SemVer): number {
  for (let i = 0; i < 3; i++) {
    const d = (a.core[i] ?? 0) - (b.core[i] ?? 0);
    if (d !== 0) return d;
  }
  // A pre-release sorts before its release; otherwise identifiers compare left to right.
  if (a.pre.length === 0 || b.pre.length === 0) return b.pre.length - a.pre.length;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const d = compareIdentifiers(a.pre[i]!, b.pre[i]!);
    if (d !== 0) return d;
  }
  return a.pre.length - b.pre.length;
}

/** The direction of going from `from` (current) to `to` (proposed). */
export function versionDirection(from: string | null, to: string): VersionDirection {
  if (from === to) return 'unchanged';
  const a = from === null ? null : parseSemVer(from);
  const b = parseSemVer(to);
  if (!a || !b) return 'not-comparable';
  const d = precedence(a, b);
  return d === 0 ? 'unchanged' : d < 0 ? 'upgrade' : 'downgrade';
}

/** The version changes and whether any of them is a downgrade (what a decision shows, current -> proposed). */
export function versionSummary(changes: Omit<VersionChange, 'direction'>[]) {
  const versions: VersionChange[] = changes.map((c) => ({ ...c, direction: versionDirection(c.from, c.to) }));
  return { versions, downgrade: versions.some((v) => v.direction === 'downgrade') };
}

/** The one text form of version changes (CLI, notifications, audit), shared with the CLI. */
export { versionsText } from '../../client/versions-text';
