/** The delivery generator validates through the engine, so API-server rule errors block a generation (issue 15 item 2). */
import { stringify } from 'yaml';
import { validateDelivery } from '../../../src/gitops/delivery-validation';
import { renderAll } from '../../../src/gitops/manifests';
import { RenderedFiles } from '../../../src/gitops/rendered-files';
import type { ProjectEnvironment } from '../../../src/projects/project-environment-repository';
import { container, deployment } from '../validation/api-server-rules';
import { ACCEPTANCE, deliveryModel } from './delivery-models';
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

  describe("a generated file's object answers as its text does (the parse it saves, issue 46)", () => {
    const DIR = 'tenants/acme/production';
    /** The same tree as plain text: validateDelivery then parses every file. */
    const asText = (files: RenderedFiles) => new Map(files);

    it('for objects with schema and API-server errors, null and undefined values, beside text-only files', async () => {
      const files = new RenderedFiles();
      const broken = deployment({
        labels: { app: 'api' },
        spec: { replicas: 'three', paused: null, minReadySeconds: undefined },
        podSpec: { containers: [container({ ports: [{ containerPort: 70000 }, undefined] })] },
      });
      files.setObject(`${DIR}/web/deployment.yaml`, broken);
      files.setObject(`${DIR}/api/deployment.yaml`, deployment());
      files.setObject(`${DIR}/api/service.yaml`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'API' } });
      files.set(`${DIR}/api/extra-job.yaml`, 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: job}\nspec: {}\n');
      const fromObjects = validateDelivery(await engine(), files, [ENV], () => true, policy);
      expect(files.objects.size).toBe(3);
      expect(fromObjects).toEqual(validateDelivery(await engine(), asText(files), [ENV], () => true, policy));
      expect(fromObjects.files).toBe(4);
      const paths = fromObjects.results.map((r) => `${r.file.slice(DIR.length + 1)} ${r.path}`);
      expect(paths).toEqual(
        expect.arrayContaining([
          'web/deployment.yaml spec.replicas',
          'web/deployment.yaml spec.template.metadata.labels',
          'api/service.yaml metadata.name',
          'api/extra-job.yaml spec.template',
        ]),
      );
    });

    it('for a whole rendered project, whose generated manifests keep their objects', async () => {
      const rendered = renderAll(deliveryModel(ACCEPTANCE));
      expect(rendered.objects.size).toBeGreaterThan(0);
      const envs = [...new Set([...rendered.keys()].map((path) => path.split('/')[2]).filter(Boolean))];
      const environments = envs.map((environment) => ({ ...ENV, environment: environment! }));
      const fromObjects = validateDelivery(await engine(), rendered, environments, () => true, policy);
      // Every Kubernetes manifest of this model is one the generator wrote: each was validated from its object.
      expect(fromObjects.files).toBe(rendered.objects.size);
      expect(fromObjects).toEqual(validateDelivery(await engine(), asText(rendered), environments, () => true, policy));
    });

    it('drops the object of a file whose text is written over', () => {
      const files = new RenderedFiles();
      files.setObject(`${DIR}/web/deployment.yaml`, deployment());
      files.set(`${DIR}/web/deployment.yaml`, 'kind: Deployment\n');
      expect(files.objects.size).toBe(0);
    });
  });
});
