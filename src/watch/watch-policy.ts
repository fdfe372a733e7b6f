import semver from 'semver';
import { compileSafePattern } from '../safe-regex';

/**
 * How a subscription picks a version among a repository's tags (issue 49):
 * - `semver`: the highest tag inside `range` (npm's range grammar); pre-releases only with `includePrerelease`.
 *   Tags are read loosely (`v1.2.3` counts as 1.2.3; a chart's `1.2.3_build.1` as 1.2.3+build.1) but the tag itself is
 *   what gets written.
 * - `regex`: tags the pattern matches (linear-time engine), ordered `alphabetical`, `numeric` (digit runs compared as
 *   numbers, so `build-10` is after `build-9`) or `created` (the image's creation time, then the tag).
 * - `digest`: one mutable tag, written as `tag@digest` so the running image cannot change behind Git's back.
 */
export type WatchPolicy =
  | { kind: 'semver'; range: string; includePrerelease: boolean }
  | { kind: 'regex'; pattern: string; order: 'alphabetical' | 'numeric' | 'created' }
  | { kind: 'digest'; tag: string };

export interface CandidateTag {
  tag: string;
  digest: string;
  /** When the image was created (or, lacking that, pushed). */
  createdAt: Date;
}

export interface PolicyChoice {
  tag: string;
  digest: string;
  /** What the workload's tag becomes: the tag, or `tag@digest` under digest tracking. */
  reference: string;
}

/** Why a policy cannot be used, for a 400 answer; null when it is usable. */
export function policyProblem(policy: WatchPolicy): string | null {
  switch (policy.kind) {
    case 'semver':
      return semver.validRange(policy.range, { includePrerelease: policy.includePrerelease, loose: true }) === null
        ? `policy.range is not a valid semver range: ${policy.range}`
        : null;
    case 'regex':
      try {
        compileSafePattern(policy.pattern);
        return null;
      } catch (err) {
        return `policy.pattern: ${err instanceof Error ? err.message : String(err)}`;
      }
    case 'digest':
      return null;
  }
}

const natural = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });

/** The candidate a policy chooses, or null when none qualifies. Pure: no I/O, no clock. */
export function choose(policy: WatchPolicy, candidates: readonly CandidateTag[]): PolicyChoice | null {
  const pick = (c: CandidateTag | undefined, reference?: string): PolicyChoice | null =>
    c ? { tag: c.tag, digest: c.digest, reference: reference ?? c.tag } : null;
  switch (policy.kind) {
    case 'semver': {
      const options = { includePrerelease: policy.includePrerelease, loose: true };
      let best: { c: CandidateTag; v: semver.SemVer } | undefined;
      for (const c of candidates) {
        const v = versionOf(c.tag);
        if (!v || !semver.satisfies(v, policy.range, options)) continue;
        // Equal precedence (1.2.0 and v1.2.0, or build metadata): the newer image wins, then the tag, so the answer
        // does not depend on the order the tags came in.
        const order = best ? semver.compare(v, best.v) : 1;
        if (!best || order > 0 || (order === 0 && later(c, best.c))) best = { c, v };
      }
      return pick(best?.c);
    }
    case 'regex': {
      const re = compileSafePattern(policy.pattern);
      const matching = candidates.filter((c) => re.test(c.tag));
      const compare =
        policy.order === 'created'
          ? (a: CandidateTag, b: CandidateTag) => (later(a, b) ? 1 : later(b, a) ? -1 : 0)
          : policy.order === 'numeric'
            ? (a: CandidateTag, b: CandidateTag) => natural.compare(a.tag, b.tag)
            : (a: CandidateTag, b: CandidateTag) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0);
      let best: CandidateTag | undefined;
      for (const c of matching) if (!best || compare(c, best) > 0) best = c;
      return pick(best);
    }
    case 'digest': {
      const c = candidates.find((x) => x.tag === policy.tag);
      return pick(c, c ? `${c.tag}@${c.digest}` : undefined);
    }
  }
}

/** A tag as a version, loosely; helm writes a chart version's `+` (build metadata) as `_` in its OCI tag. */
const versionOf = (tag: string) =>
  semver.parse(tag, { loose: true }) ??
  (tag.includes('_') ? semver.parse(tag.replace(/_/g, '+'), { loose: true }) : null);

function later(a: CandidateTag, b: CandidateTag): boolean {
  const d = a.createdAt.getTime() - b.createdAt.getTime();
  return d > 0 || (d === 0 && a.tag > b.tag);
}
