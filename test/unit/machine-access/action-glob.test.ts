import { concreteAction } from '../../../api/auth-chain';
import { NotFound } from '../../../src/errors';
import { isActionPattern, matchesActionPattern } from '../../../src/iam/action-glob';

describe('action glob patterns', () => {
  it.each([
    ['projects.*.releases.create', 'projects.alpha.releases.create', true],
    ['projects.*.releases.create', 'projects.alpha.beta.releases.create', false],
    ['projects.alpha.*', 'projects.alpha.read', true],
    ['projects.alpha.*', 'projects.alpha.files.read', false],
    ['projects.alpha.*', 'projects.beta.read', false],
    ['projects.alpha.*', 'projects.alphabet.read', false],
    ['projects.alpha.**', 'projects.alpha.files.read', true],
    ['projects.alpha.**', 'projects.alpha', false],
    ['**', 'org.members.read', true],
    ['clusters.*.commands.sync', 'clusters.c1.commands.sync', true],
    ['org.members.read', 'org.members.read', true],
    ['org.members.read', 'org.members.readx', false],
    ['projects.**.read', 'projects.alpha.files.read', true],
    ['projects.**.read', 'projects.read', false],
  ])('%s against %s is %s', (pattern, action, expected) => {
    expect(matchesActionPattern(pattern, action)).toBe(expected);
  });

  it('never lets * cross a dot, whatever the neighbours (A-43)', () => {
    // The spec's `deploy:*` shape in dotted form: one segment only, no prefix match, no other tenant.
    expect(matchesActionPattern('deploy.*', 'deploy.x.delete')).toBe(false);
    expect(matchesActionPattern('deploy.*', 'deployadmin.x')).toBe(false);
    expect(matchesActionPattern('tenants.t1.*', 'tenants.t2.read')).toBe(false);
    expect(matchesActionPattern('*', 'a.b')).toBe(false);
  });

  it('refuses malformed patterns and bounds the backtracking', () => {
    for (const bad of ['', '.', 'a..b', 'a.*x', 'a b', '**.**.**.**', 'x'.repeat(513)]) {
      expect([bad, isActionPattern(bad)]).toEqual([bad, false]);
      expect(matchesActionPattern(bad, 'a.b')).toBe(false);
    }
    expect(matchesActionPattern('**.**.**.z', `${'a.'.repeat(40)}y`)).toBe(false);
  });
});

describe('concrete actions', () => {
  it('refuse a path parameter with a dot, which would add segments for ** to absorb', () => {
    expect(concreteAction('projects.{slug}.read', { slug: 'alpha' })).toBe('projects.alpha.read');
    expect(concreteAction('projects.{slug}.read', {})).toBe('projects.*.read');
    expect(() => concreteAction('projects.{slug}.read', { slug: 'alpha.tenants.t2' })).toThrow(NotFound);
  });
});
