import type { apiCaller } from './api-call';

/** Project `shop` with environments `env-0`.. and tenants `t0`..: answers the environment slugs and tenant ids. */
export async function makeShopProject(
  call: ReturnType<typeof apiCaller>,
  counts: { environments: number; tenants: number },
): Promise<{ environments: string[]; tenants: string[] }> {
  const environments = Array.from({ length: counts.environments }, (_, i) => `env-${i}`);
  for (const slug of environments) await call('POST', '/api/v2/org/environments', { slug });
  await call('POST', '/api/v2/projects', { slug: 'shop', name: 'Shop' });
  for (const environment of environments) {
    await call('POST', '/api/v2/projects/shop/environments', { environment, kubernetesVersion: '1.29' });
  }
  const tenants: string[] = [];
  for (let t = 0; t < counts.tenants; t++) {
    tenants.push(
      (await call<{ id: string }>('POST', '/api/v2/projects/shop/tenants', { slug: `t${t}`, name: `T${t}` })).id,
    );
  }
  return { environments, tenants };
}
