import { choose, policyProblem, type CandidateTag } from '../../../src/watch/watch-policy';

const digest = (n: number) => `sha256:${n.toString(16).padStart(64, '0')}`;
const at = (minute: number) => new Date(Date.UTC(2026, 10, 29, 12, minute));
const tags = (...names: string[]): CandidateTag[] =>
  names.map((tag, i) => ({ tag, digest: digest(i + 1), createdAt: at(i) }));

describe('watch policy: semver', () => {
  const range = { kind: 'semver', range: '>=1.0.0 <2.0.0', includePrerelease: false } as const;

  it('chooses 1.10.0 among 1.2.0, 1.3.0-rc.1 and 1.10.0 without pre-releases (issue 49 acceptance)', () => {
    expect(choose(range, tags('1.2.0', '1.3.0-rc.1', '1.10.0'))?.reference).toBe('1.10.0');
    // Not the order the tags came in, nor the newest image, nor lexical order.
    expect(choose(range, tags('1.10.0', '1.3.0-rc.1', '1.2.0'))?.reference).toBe('1.10.0');
  });

  it("reads a chart tag's _ as + (helm's OCI tag of build metadata) and writes the tag as pushed", () => {
    expect(choose(range, tags('1.2.0', '1.2.0_build.7', '1.1.0_x'))?.reference).toBe('1.2.0_build.7');
    expect(choose(range, tags('2.0.0_build.1', '1.0.0'))?.reference).toBe('1.0.0');
  });

  it('takes a pre-release only with includePrerelease', () => {
    const withPre = { ...range, includePrerelease: true };
    expect(choose(withPre, tags('1.2.0', '1.3.0-rc.1'))?.tag).toBe('1.3.0-rc.1');
    expect(choose(range, tags('1.2.0', '1.3.0-rc.1'))?.tag).toBe('1.2.0');
  });

  it('ignores tags outside the range or not versions at all, and answers null when none qualifies', () => {
    expect(choose(range, tags('2.0.0', 'latest', '0.9.9', '1.0.1'))?.tag).toBe('1.0.1');
    expect(choose(range, tags('2.0.0', 'latest'))).toBeNull();
  });

  it('writes the tag as pushed (v-prefix kept) and breaks equal precedence by the newer image', () => {
    expect(choose(range, tags('1.4.0', 'v1.5.0'))?.reference).toBe('v1.5.0');
    expect(choose(range, tags('v1.5.0', '1.5.0'))?.tag).toBe('1.5.0');
  });

  it('refuses an invalid range with a message naming it', () => {
    expect(policyProblem({ kind: 'semver', range: '>=x.y', includePrerelease: false })).toMatch(/not a valid semver/);
    expect(policyProblem(range)).toBeNull();
  });
});

describe('watch policy: regex', () => {
  it('orders numerically, alphabetically or by creation time', () => {
    const all = tags('build-9', 'build-10', 'other-99', 'build-2');
    expect(choose({ kind: 'regex', pattern: '^build-\\d+$', order: 'numeric' }, all)?.tag).toBe('build-10');
    expect(choose({ kind: 'regex', pattern: '^build-\\d+$', order: 'alphabetical' }, all)?.tag).toBe('build-9');
    expect(choose({ kind: 'regex', pattern: '^build-\\d+$', order: 'created' }, all)?.tag).toBe('build-2');
  });

  it('refuses a pattern the linear-time engine cannot run', () => {
    expect(policyProblem({ kind: 'regex', pattern: '(a)\\1', order: 'numeric' })).toMatch(/backreference/);
    expect(policyProblem({ kind: 'regex', pattern: '([', order: 'numeric' })).toMatch(/policy.pattern/);
  });
});

describe('watch policy: digest tracking', () => {
  it('yields tag@digest of the mutable tag, and follows a re-push', () => {
    const first = tags('stable', '1.0.0');
    expect(choose({ kind: 'digest', tag: 'stable' }, first)?.reference).toBe(`stable@${digest(1)}`);
    const repushed = [{ tag: 'stable', digest: digest(42), createdAt: at(30) }];
    expect(choose({ kind: 'digest', tag: 'stable' }, repushed)?.reference).toBe(`stable@${digest(42)}`);
    expect(choose({ kind: 'digest', tag: 'stable' }, tags('1.0.0'))).toBeNull();
  });
});
