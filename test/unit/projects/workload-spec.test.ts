import { withDefaults } from '../../../src/projects/workload-spec';

describe('withDefaults', () => {
  const image = { repository: 'r.example.com/web', tag: '1' };

  it('keeps extra manifests only when there are some, each name once', () => {
    expect(withDefaults({ image })).not.toHaveProperty('extraManifests');
    expect(withDefaults({ image, extraManifests: [] })).not.toHaveProperty('extraManifests');
    const hpa = { name: 'hpa', content: 'kind: HorizontalPodAutoscaler' };
    expect(withDefaults({ image, extraManifests: [hpa] }).extraManifests).toEqual([hpa]);
    expect(() => withDefaults({ image, extraManifests: [hpa, { ...hpa }] })).toThrow(
      'extra manifest hpa is named twice',
    );
  });
});
