/** The delivery generator validates through the engine, so API-server rule errors block a generation (issue 15 item 2). */
import { stringify } from 'yaml';
import { validateDelivery } from '../../../src/gitops/delivery-validation';
import type { ProjectEnvironment } from '../../../src/projects/project-environment-repository';
import { deployment } from '../validation/api-server-rules';
import { engine } from '../validation/corpus';

const ENV: ProjectEnvironment = {
  id: 'e1',
  environment: 'production',
  name: 'Production',
  production: true,
  position: 0,
  kubernetesVersion: '1.29',
  kubernetesVersionSource: 'manual',
  delivery: { validateOnPreview: true, validateOnGenerate: true },
  destination: { namespaceTemplate: null, server: null, allowSharedNamespace: false },
  syncPolicy: { automated: true, prune: false, selfHeal: false, syncOptions: ['CreateNamespace=true'] },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

function deploymentFile(labels: Record<string, string>): string {
  return stringify(deployment({ labels }));
}

describe('validateDelivery', () => {
  const policy = { errors: 'block', deprecations: 'warn' } as const;

  it('passes a generated file that breaks no rule', async () => {
    const files = new Map([['tenants/acme/production/web/deployment.yaml', deploymentFile({ app: 'web' })]]);
    const result = validateDelivery(await engine(), files, [ENV], () => true, policy);
    expect(result).toMatchObject({ files: 1, blocked: false, summary: { errors: 0 } });
  });

  it('reports an API-server rule error with its file, path and message, and blocks on it', async () => {
    const files = new Map([['tenants/acme/production/web/deployment.yaml', deploymentFile({ app: 'api' })]]);
    const result = validateDelivery(await engine(), files, [ENV], () => true, policy);
    expect(result.blocked).toBe(true);
    expect(result.results).toEqual([
      expect.objectContaining({
        severity: 'error',
        file: 'tenants/acme/production/web/deployment.yaml',
        path: 'spec.template.metadata.labels',
        message: 'invalid value {"app":"api"}: `selector` does not match template `labels`',
        kubernetesVersion: '1.29',
      }),
    ]);
  });
});
