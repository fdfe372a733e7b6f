/**
 * Every manifest the delivery generator writes passes every rule (issue 15): a large project (many tenants,
 * environments and workloads with ports, variables, resources and overrides, names at their longest) is rendered with
 * the generator itself and each Kubernetes manifest validated for the oldest and the newest supported release.
 */
import { renderAll, type DeliveryModel } from '../../../src/gitops/manifests';
import { isKubernetesManifest } from '../../../src/delivery-layout/target-paths';
import type { ContainerPort, WorkloadSpec } from '../../../src/projects/workload-spec';
import { engine } from './corpus';

const LONGEST_SLUG = `t${'e'.repeat(61)}n`; // 63 characters, the request schemas' maximum for slugs
const LONGEST_SERVICE = `s${'v'.repeat(48)}c`; // 50 characters, the maximum of a workload name

function ports(i: number): ContainerPort[] {
  switch (i % 5) {
    case 0:
      return [];
    case 1:
      return [{ containerPort: 8080 }];
    case 2:
      return [{ containerPort: 8080 }, { containerPort: 9090 }]; // several ports, none named
    case 3:
      return [
        { name: 'http', containerPort: 80 },
        { name: 'metrics', containerPort: 9100 },
        { containerPort: 53, protocol: 'UDP' },
        { containerPort: 53, protocol: 'TCP' },
      ];
    default:
      return [{ name: 'grpc', containerPort: 50051 }];
  }
}

function workload(name: string, i: number): DeliveryModel['workloads'][number] {
  const spec: WorkloadSpec = {
    image: { repository: `registry.example.com/team/${name}`, tag: `1.${i}.0` },
    replicas: i % 4,
    ports: ports(i),
    resources:
      i % 3 === 0
        ? {}
        : { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: i % 2 ? '1' : '1500m', memory: '1Gi' } },
    probes: i % 2 ? { readiness: { httpGet: { path: '/ready', port: 8080 } } } : {},
    variables: i % 4 === 0 ? {} : { LOG_LEVEL: 'info', 'feature.flag-x': 'on', _PRIVATE: 'x', 'app.config.json': '{}' },
  };
  return {
    name,
    spec,
    overrides: {
      environments: {
        production: { replicas: 3, resources: { requests: { cpu: '250m' } }, variables: { MODE: 'prod' } },
      },
      tenants: { [LONGEST_SLUG]: { production: { tag: `1.${i}.1-hotfix`, resources: { limits: { memory: '2Gi' } } } } },
    },
  };
}

const MODEL: DeliveryModel = {
  project: `p${'r'.repeat(61)}j`,
  repoUrl: 'http://127.0.0.1:3000/git/r/acme/shop.git',
  tenants: ['acme', 'globex', 'initech', LONGEST_SLUG, 'a'],
  environments: ['dev', 'staging', 'production'].map((slug) => ({ slug, kubernetesVersion: '1.29' })),
  workloads: [
    ...Array.from({ length: 38 }, (_, i) => workload(`svc-${i}`, i)),
    workload(LONGEST_SERVICE, 3),
    workload('a', 2),
  ],
};

describe('manifests the platform generates pass every API-server rule', () => {
  const files = [...renderAll(MODEL)].filter(([path]) => isKubernetesManifest(path));

  it('renders a large project', () => {
    expect(files.length).toBeGreaterThan(1000);
  });

  it.each(['1.25', '1.32'])('Kubernetes %s: no errors and no warnings in any generated manifest', async (version) => {
    const e = await engine();
    const problems = files.flatMap(([path, text]) =>
      e
        .validate(text, version, { bestPractices: false })
        .results.map((r) => `${path}: ${r.severity} ${r.path}: ${r.message}`),
    );
    expect([...new Set(problems.map((p) => p.replace(/^\S+ /, '')))].slice(0, 20)).toEqual([]);
  });
});
