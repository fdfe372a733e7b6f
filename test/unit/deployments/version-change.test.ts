import { versionDirection, versionSummary } from '../../../src/deployments/version-change';

/** Current -> proposed version directions of image tags: semantic versions compared, anything else flagged. */
describe('versionDirection', () => {
  it.each([
    ['1.4.0', '1.5.0', 'upgrade'],
    ['1.5.0', '1.4.0', 'downgrade'],
    ['v1.10.0', 'v1.9.3', 'downgrade'],
    ['1.5.0-rc.1', '1.5.0', 'upgrade'],
    ['1.5.0', '1.5.0-rc.1', 'downgrade'],
    ['1.5.0-rc.2', '1.5.0-rc.10', 'upgrade'],
    ['1.5.0-alpha', '1.5.0-1', 'downgrade'],
    ['1.5.0+build.1', '1.5.0+build.2', 'unchanged'],
    ['1.5.0', '1.5.0', 'unchanged'],
    ['latest', '1.5.0', 'not-comparable'],
    ['1.5.0', '3f2a9c1', 'not-comparable'],
    ['1.5', '1.4', 'not-comparable'],
    [null, '1.5.0', 'not-comparable'],
  ] as const)('%s -> %s is %s', (from, to, direction) => {
    expect(versionDirection(from, to)).toBe(direction);
  });

  it('flags a set of changes as a downgrade when any change is one', () => {
    const summary = versionSummary([
      { tenant: 'acme', workload: 'web', from: '1.5.0', to: '1.4.0' },
      { tenant: 'acme', workload: 'api', from: '2.0.0', to: '2.1.0' },
    ]);
    expect(summary.downgrade).toBe(true);
    expect(summary.versions.map((v) => v.direction)).toEqual(['downgrade', 'upgrade']);
    expect(versionSummary([{ tenant: 'a', workload: 'w', from: 'main', to: 'dev' }]).downgrade).toBe(false);
  });
});
