import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../src/paths';
import { createKubeTools } from '../../src/tools/kube-tools';
import { ValidationEngine } from '../../src/validation';

/**
 * The platform's own Helm chart (deploy/helm/delivery-platform, docs/operations.md) with the real helm: it lints, it
 * refuses to render without the settings every process must share, and what it renders is valid Kubernetes by the
 * platform's own validator.
 */
const run = promisify(execFile);
const chart = path.join(repoRoot(), 'deploy', 'helm', 'delivery-platform');
const required = [
  'publicUrl=https://delivery.example.com',
  'database.existingSecret=delivery-db',
  'temporal.address=temporal-frontend:7233',
  'keys.existingSecret=delivery-keys',
];
let helm: string;

beforeAll(async () => {
  helm = await createKubeTools({ toolsDir: path.join(repoRoot(), '.tools') }).helm();
}, 120_000);

const sets = (values: string[]) => values.flatMap((v) => ['--set', v]);

describe('the platform Helm chart', () => {
  it('passes helm lint with the required settings', async () => {
    const { stdout } = await run(helm, ['lint', chart, ...sets(required)]);
    expect(stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
  }, 60_000);

  it('refuses to render without a shared key secret, naming it', async () => {
    const missing = required.filter((v) => !v.startsWith('keys.'));
    await expect(run(helm, ['template', 'delivery', chart, ...sets(missing)])).rejects.toMatchObject({
      stderr: expect.stringContaining('keys.existingSecret is required'),
    });
  }, 60_000);

  it('renders API, worker, migrations Job, shared volume and probes that validate for Kubernetes 1.31', async () => {
    const { stdout } = await run(helm, [
      'template',
      'delivery',
      chart,
      ...sets([...required, 'ingress.enabled=true', 'temporal.tlsSecret=temporal-tls']),
    ]);
    for (const kind of ['Deployment', 'Job', 'PersistentVolumeClaim', 'Service', 'Ingress']) {
      expect(stdout).toContain(`kind: ${kind}`);
    }
    expect(stdout).toContain('path: /readyz');
    expect(stdout).toContain('claimName: delivery-delivery-data');
    expect(stdout).toMatch(/name: JWT_PRIVATE_KEY\n\s+valueFrom:\n\s+secretKeyRef: \{ name: "delivery-keys"/);
    const engine = new ValidationEngine();
    await engine.init();
    const result = engine.validate(stdout, '1.31');
    expect(result.results.filter((r) => r.severity === 'error')).toEqual([]);
    expect(result.valid).toBe(true);
  }, 120_000);
});
