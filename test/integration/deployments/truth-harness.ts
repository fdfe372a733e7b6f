import {
  controllerSimulator,
  type ControllerSimulator,
  type ControllerSimulatorOptions,
} from '../../helpers/controller-simulator';
import { httpClient } from '../../helpers/http-client';
import type { TestPlatform } from '../../helpers/test-platform';
import { cloneUrl, makeProject } from '../gitops/gitops-harness';
import { controllerClient } from '../webhooks/controller-client';

/**
 * A generated project and a controller simulator watching it (over /git/r with a read key), its first look done:
 * every Application synced and Healthy.
 */
export async function watchedProject(
  platform: TestPlatform,
  org: { slug: string; ownerToken: string },
  slug: string,
  tenantSlugs: string[],
  controller = controllerClient(platform.url),
  outcome?: ControllerSimulatorOptions['outcome'],
): Promise<{ tenants: Record<string, string>; sim: ControllerSimulator; controllerToken: string }> {
  const http = httpClient(platform.url);
  const token = org.ownerToken;
  const tenants = await makeProject(platform, token, slug, tenantSlugs);
  const key = await http.post<{ key: string }>(`/api/v2/projects/${slug}/api-keys`, {
    token,
    body: { name: 'controller', scopes: ['read'] },
  });
  if (key.status !== 201) throw new Error(`read key: ${key.status} ${key.text}`);
  const controllerToken = await controller.tokenFor(token);
  const sim = controllerSimulator({
    cloneUrl: cloneUrl(platform, org.slug, slug, key.body.key),
    baseUrl: platform.url,
    controllerToken,
    outcome,
  });
  const generated = await http.post(`/api/v2/projects/${slug}/delivery/generate`, { token, body: {} });
  if (generated.status !== 200) throw new Error(`generate: ${generated.status} ${generated.text}`);
  await sim.refresh();
  return { tenants, sim, controllerToken };
}
