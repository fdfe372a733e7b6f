import { changeGroups, dependencyProblem, orderByDependencies } from '../../../src/projects/workload-order';

const app = [
  { name: 'migrate', dependsOn: [] },
  { name: 'api', dependsOn: ['migrate'] },
  { name: 'worker', dependsOn: ['migrate'] },
  { name: 'web', dependsOn: ['api'] },
  { name: 'docs', dependsOn: [] },
];

describe('service order', () => {
  it('orders changed workloads after what they depend on, grouping independent ones', () => {
    expect(orderByDependencies(app, ['web', 'api', 'migrate', 'worker', 'docs'])).toEqual([
      ['docs', 'migrate'],
      ['api', 'worker'],
      ['web'],
    ]);
  });

  it('keeps the order through a workload that did not change', () => {
    expect(orderByDependencies(app, ['web', 'migrate'])).toEqual([['migrate'], ['web']]);
  });

  it('gives one group when no changed workload depends on another', () => {
    expect(orderByDependencies(app, ['api', 'docs', 'api'])).toEqual([['api', 'docs']]);
    expect(orderByDependencies(app, [])).toEqual([]);
  });

  it('splits changes into those groups, each change kept whole', () => {
    const changes = [
      { workload: 'web', tag: '3' },
      { workload: 'docs', tag: '2' },
      { workload: 'migrate', tag: '1' },
    ];
    expect(changeGroups(app, changes)).toEqual([
      [
        { workload: 'docs', tag: '2' },
        { workload: 'migrate', tag: '1' },
      ],
      [{ workload: 'web', tag: '3' }],
    ]);
    expect(changeGroups(app, [{ workload: 'docs', tag: '2' }])).toEqual([[{ workload: 'docs', tag: '2' }]]);
  });

  it('names a cycle, a self-dependency and an unknown workload', () => {
    const cyclic = [
      { name: 'a', dependsOn: ['b'] },
      { name: 'b', dependsOn: ['c'] },
      { name: 'c', dependsOn: ['a'] },
      { name: 'd', dependsOn: ['a'] },
    ];
    expect(dependencyProblem(cyclic)).toBe('dependsOn forms a cycle: a -> b -> c -> a');
    expect(dependencyProblem([{ name: 'a', dependsOn: ['a'] }])).toBe('dependsOn forms a cycle: a -> a');
    expect(dependencyProblem([{ name: 'a', dependsOn: ['ghost'] }])).toBe(
      'workload a depends on unknown workload ghost',
    );
    expect(dependencyProblem(app)).toBeNull();
    expect(() => orderByDependencies(cyclic, ['a'])).toThrow('dependsOn forms a cycle');
  });
});
