import type { apiCaller } from './api-call';

type Call = ReturnType<typeof apiCaller>;

/** The organization's environments `env-0`..: answers their slugs. */
export async function makeOrgEnvironments(call: Call, count: number): Promise<string[]> {
  const environments = Array.from({ length: count }, (_, i) => `env-${i}`);
  for (const slug of environments) await call('POST', '/api/v2/org/environments', { slug });
  return environments;
}

/** Project `slug` on `environments` with tenants `t0`..: answers the tenant ids. */
export async function makeProject(
  call: Call,
  slug: string,
  environments: string[],
  tenants: number,
): Promise<string[]> {
  await call('POST', '/api/v2/projects', { slug, name: slug });
  for (const environment of environments) {
    await call('POST', `/api/v2/projects/${slug}/environments`, { environment, kubernetesVersion: '1.29' });
  }
  const ids: string[] = [];
  for (let t = 0; t < tenants; t++) {
    ids.push(
      (await call<{ id: string }>('POST', `/api/v2/projects/${slug}/tenants`, { slug: `t${t}`, name: `T${t}` })).id,
    );
  }
  return ids;
}

/** Project `shop` with environments `env-0`.. and tenants `t0`..: answers the environment slugs and tenant ids. */
export async function makeShopProject(
  call: Call,
  counts: { environments: number; tenants: number },
): Promise<{ environments: string[]; tenants: string[] }> {
  const environments = await makeOrgEnvironments(call, counts.environments);
  return { environments, tenants: await makeProject(call, 'shop', environments, counts.tenants) };
}

/** A plain workload `name` (one container, one port) in `project`. */
export async function addWorkload(call: Call, project: string, name: string): Promise<void> {
  await call('POST', `/api/v2/projects/${project}/workloads`, {
    name,
    image: { repository: `registry.example.com/${project}/${name}`, tag: '1.0.0' },
    ports: [{ name: 'http', containerPort: 8080 }],
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
  });
}
