import { renderKustomizeBase } from '../../../src/catalog/kustomize-render';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: old }
spec:
  replicas: 1
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      initContainers: [{ name: init, image: "busybox:1.36" }]
      containers: [{ name: web, image: "nginx:1.25" }, { name: side, image: "envoy@sha256:abc" }]
`;
const overrides = { image: { repository: 'example.com/web', tag: '3.0.0' }, replicas: 2 };

describe('the kustomize subset', () => {
  it('applies namespace, prefix, suffix, annotations, image rules and replica rules, then the workload overrides', () => {
    const [obj] = renderKustomizeBase(
      {
        'kustomization.yaml': `resources: [deployment.yaml]
namespace: shop
namePrefix: a-
nameSuffix: -z
commonAnnotations: { team: web }
images:
  - { name: nginx, newName: example.com/web }
  - { name: busybox, newTag: "1.37" }
  - { name: envoy, digest: "sha256:def" }
replicas: [{ name: web, count: 7 }]
`,
        'deployment.yaml': DEPLOYMENT,
      },
      overrides,
    );
    expect(obj?.metadata).toEqual({ name: 'a-web-z', namespace: 'shop', annotations: { team: 'web' } });
    const spec = obj?.spec as { replicas: number; template: { spec: Record<string, { image: string }[]> } };
    expect(spec.replicas).toBe(2);
    expect(spec.template.spec.containers?.map((c) => c.image)).toEqual(['example.com/web:3.0.0', 'envoy@sha256:def']);
    expect(spec.template.spec.initContainers?.[0]?.image).toBe('busybox:1.37');
  });

  it('keeps the base replica rule when the workload does not scale that kind', () => {
    const [obj] = renderKustomizeBase(
      { 'kustomization.yaml': 'resources: [d.yaml]\n', 'd.yaml': DEPLOYMENT.replace('Deployment', 'DaemonSet') },
      overrides,
    );
    expect((obj?.spec as { replicas: number }).replicas).toBe(1);
  });

  it.each(['components: [c]', 'configMapGenerator: []', 'bases: [../x]', 'patchesStrategicMerge: [p.yaml]'])(
    'refuses %s with 422',
    (line) => {
      expect(() =>
        renderKustomizeBase(
          { 'kustomization.yaml': `resources: [d.yaml]\n${line}\n`, 'd.yaml': DEPLOYMENT },
          overrides,
        ),
      ).toThrow(expect.objectContaining({ status: 422, message: expect.stringMatching(/does not apply/) }));
    },
  );
});
