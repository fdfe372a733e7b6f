import { resolveWaves, type SelectableTenant } from '../../../src/rollouts/wave-selection';
import type { PlanWave } from '../../../src/rollouts/rollout-plan';

const base = { soakSeconds: 0, checks: [], approvalGate: false };
const tenants: SelectableTenant[] = ['a', 'b', 'c', 'd', 'e', 'f'].map((slug) => ({
  slug,
  labels: slug === 'c' || slug === 'e' ? { tier: 'gold' } : ({} as Record<string, string>),
}));

describe('resolveWaves', () => {
  it('takes named tenants, then labels, then a share of the rest, each tenant once', () => {
    const waves: PlanWave[] = [
      { ...base, name: 'canary', tenants: ['a', 'e'] },
      { ...base, name: 'gold', selector: { matchLabels: { tier: 'gold' } } },
      { ...base, name: 'half', percent: 50 },
      { ...base, name: 'rest', percent: 100 },
    ];
    expect(resolveWaves(waves, tenants).map((w) => [w.name, w.tenants])).toEqual([
      ['canary', ['a', 'e']],
      ['gold', ['c']],
      ['half', ['b', 'd']],
      ['rest', ['f']],
    ]);
  });

  it('puts tenants no wave selects into the last wave and keeps empty waves', () => {
    const waves: PlanWave[] = [
      { ...base, name: 'none', tenants: ['zz'] },
      { ...base, name: 'one', percent: 1 },
    ];
    const resolved = resolveWaves(waves, tenants);
    expect(resolved.map((w) => w.tenants)).toEqual([[], ['a', 'b', 'c', 'd', 'e', 'f']]);
    expect(resolved[1]!.selection).toBe('1% of the remaining tenants');
  });
});
