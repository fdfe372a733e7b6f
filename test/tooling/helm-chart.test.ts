import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadAll } from 'js-yaml';
import { repoRoot } from '../../src/paths';
import { createKubeTools } from '../../src/tools/kube-tools';
import { ValidationEngine } from '../../src/validation';

/**
 * The platform's own Helm chart (deploy/helm/delivery-platform, docs/operations.md) with the real helm: it lints, it
 * refuses to render without the settings every process must share, what it renders is valid Kubernetes by the
 * platform's own validator, and it is what docs/operations.md says (issue 43, M4): each pod's DATA_DIR an emptyDir,
 * the shared volume only at GIT_REPOSITORIES_DIR, the bucket, PodDisruptionBudgets, the migrator's database Secret
 * apart from the app role's, resources, probes, and a preStop delay and grace period matching SHUTDOWN_DRAIN_DELAY.
 */
const run = promisify(execFile);
const chart = path.join(repoRoot(), 'deploy', 'helm', 'delivery-platform');
const required = [
  'publicUrl=https://delivery.example.com',
  'database.existingSecret=delivery-db',
  'database.migrationSecret=delivery-db-owner',
  'temporal.address=temporal-frontend:7233',
  'keys.existingSecret=delivery-keys',
  'bucket.name=delivery-blobs',
];
let helm: string;

beforeAll(async () => {
  helm = await createKubeTools({ toolsDir: path.join(repoRoot(), '.tools') }).helm();
}, 120_000);

const sets = (values: string[]) => values.flatMap((v) => ['--set', v]);
const render = async (values: string[]) => (await run(helm, ['template', 'delivery', chart, ...sets(values)])).stdout;

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef: { name: string; key: string } };
}
interface Container {
  name: string;
  args: string[];
  env: EnvVar[];
  resources?: { requests?: object; limits?: object };
  volumeMounts?: Array<{ name: string; mountPath: string }>;
  livenessProbe?: { httpGet: { path: string } };
  readinessProbe?: { httpGet: { path: string } };
  lifecycle?: { preStop: { exec: { command: string[] } } };
}
interface PodSpec {
  containers: Container[];
  volumes?: Array<{ name: string; emptyDir?: object; persistentVolumeClaim?: { claimName: string } }>;
  terminationGracePeriodSeconds?: number;
}
interface Doc {
  kind: string;
  metadata: { name: string };
  spec: { template?: { spec: PodSpec }; selector?: { matchLabels: Record<string, string> }; maxUnavailable?: number };
}

const docs = (yaml: string) => (loadAll(yaml) as Array<Doc | null>).filter((d): d is Doc => d !== null);
const find = (all: Doc[], kind: string, name: string) => {
  const doc = all.find((d) => d.kind === kind && d.metadata.name === name);
  if (!doc) throw new Error(`no ${kind} ${name}`);
  return doc;
};
const podOf = (doc: Doc) => doc.spec.template!.spec;
const env = (c: Container) => Object.fromEntries(c.env.map((e) => [e.name, e.value ?? e.valueFrom]));

describe('the platform Helm chart', () => {
  it('passes helm lint with the required settings', async () => {
    const { stdout } = await run(helm, ['lint', chart, ...sets(required)]);
    expect(stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
  }, 60_000);

  it.each([
    ['keys.', 'keys.existingSecret is required'],
    ['bucket.', 'bucket.name is required'],
    ['database.migrationSecret', 'database.migrationSecret is required'],
  ])(
    'refuses to render without %s, naming it',
    async (prefix, message) => {
      await expect(render(required.filter((v) => !v.startsWith(prefix)))).rejects.toMatchObject({
        stderr: expect.stringContaining(message),
      });
    },
    60_000,
  );

  it('renders API, worker, migrations Job, shared volume, PDBs and probes that validate for Kubernetes 1.31', async () => {
    const stdout = await render([...required, 'ingress.enabled=true', 'temporal.tlsSecret=temporal-tls']);
    for (const kind of ['Deployment', 'Job', 'PersistentVolumeClaim', 'Service', 'Ingress', 'PodDisruptionBudget']) {
      expect(stdout).toContain(`kind: ${kind}`);
    }
    const engine = new ValidationEngine();
    await engine.init();
    const result = engine.validate(stdout, '1.31');
    expect(result.results.filter((r) => r.severity === 'error')).toEqual([]);
    expect(result.valid).toBe(true);
  }, 120_000);

  it('gives each pod its own DATA_DIR and mounts the shared volume only at GIT_REPOSITORIES_DIR', async () => {
    const all = docs(await render(required));
    for (const name of ['delivery-delivery-api', 'delivery-delivery-worker']) {
      const pod = podOf(find(all, 'Deployment', name));
      const container = pod.containers[0]!;
      const vars = env(container);
      expect([vars.DATA_DIR, vars.GIT_REPOSITORIES_DIR]).toEqual(['/data', '/git']);
      const volume = (mountPath: unknown) =>
        pod.volumes!.find((v) => v.name === container.volumeMounts!.find((m) => m.mountPath === mountPath)!.name)!;
      expect(volume('/data')).toMatchObject({ emptyDir: {} });
      expect(volume('/git')).toMatchObject({ persistentVolumeClaim: { claimName: 'delivery-delivery-data' } });
      // The claim is mounted once, nowhere but GIT_REPOSITORIES_DIR (never under DATA_DIR, never as it).
      const claimMounts = container.volumeMounts!.filter((m) =>
        pod.volumes!.some((v) => v.name === m.name && v.persistentVolumeClaim),
      );
      expect(claimMounts.map((m) => m.mountPath)).toEqual(['/git']);
    }
    // A volume from the chart that mounted it at DATA_DIR keeps its repositories in its `git` folder.
    const upgraded = podOf(
      find(docs(await render([...required, 'sharedVolume.subPath=git'])), 'Deployment', 'delivery-delivery-api'),
    );
    expect(upgraded.containers[0]!.volumeMounts).toContainEqual({ name: 'git', mountPath: '/git', subPath: 'git' });
  }, 60_000);

  it('sets the bucket in every API and worker, with its credentials from a Secret when given', async () => {
    const all = docs(
      await render([
        ...required,
        'bucket.endpoint=http://minio.storage:9000',
        'bucket.prefix=prod/',
        'bucket.existingSecret=delivery-s3',
      ]),
    );
    for (const name of ['delivery-delivery-api', 'delivery-delivery-worker']) {
      expect(env(podOf(find(all, 'Deployment', name)).containers[0]!)).toMatchObject({
        REGISTRY_S3_BUCKET: 'delivery-blobs',
        REGISTRY_S3_ENDPOINT: 'http://minio.storage:9000',
        REGISTRY_S3_PREFIX: 'prod/',
        REGISTRY_S3_REGION: 'us-east-1',
        REGISTRY_S3_ACCESS_KEY_ID: { secretKeyRef: { name: 'delivery-s3', key: 'REGISTRY_S3_ACCESS_KEY_ID' } },
        REGISTRY_S3_SECRET_ACCESS_KEY: { secretKeyRef: { name: 'delivery-s3', key: 'REGISTRY_S3_SECRET_ACCESS_KEY' } },
      });
    }
  }, 60_000);

  it("keeps the migrator's database Secret apart from the app role's, and grants the app role after migrating", async () => {
    const all = docs(await render([...required, 'database.appRole=app']));
    const job = all.find((d) => d.kind === 'Job')!;
    const migrate = podOf(job).containers[0]!;
    expect(env(migrate).DATABASE_URL).toEqual({ secretKeyRef: { name: 'delivery-db-owner', key: 'DATABASE_URL' } });
    expect(migrate.args.join(' ')).toMatch(/npm run migrate && npm run admin -- grant-app-role --role "\$APP_ROLE"/);
    expect(env(migrate).APP_ROLE).toBe('app');
    for (const name of ['delivery-delivery-api', 'delivery-delivery-worker']) {
      const vars = env(podOf(find(all, 'Deployment', name)).containers[0]!);
      expect(vars.DATABASE_URL).toEqual({ secretKeyRef: { name: 'delivery-db', key: 'DATABASE_URL' } });
    }
    expect(JSON.stringify(all.filter((d) => d.kind !== 'Job'))).not.toContain('delivery-db-owner');
  }, 60_000);

  it('has PodDisruptionBudgets, resources and probes for API and worker', async () => {
    const all = docs(await render(required));
    for (const component of ['api', 'worker']) {
      const pdb = find(all, 'PodDisruptionBudget', `delivery-delivery-${component}`);
      const deployment = find(all, 'Deployment', `delivery-delivery-${component}`);
      expect(pdb.spec.maxUnavailable).toBe(1);
      expect(pdb.spec.selector!.matchLabels).toEqual(deployment.spec.selector!.matchLabels);
      const container = podOf(deployment).containers[0]!;
      expect(container.resources).toMatchObject({ requests: { cpu: '250m', memory: '512Mi' } });
      expect(container.livenessProbe!.httpGet.path).toBe('/healthz');
      expect(container.readinessProbe!.httpGet.path).toBe('/readyz');
    }
    expect(podOf(all.find((d) => d.kind === 'Job')!).containers[0]!.resources).toBeDefined();
  }, 60_000);

  it('waits a preStop delay and gives a grace period covering it and SHUTDOWN_DRAIN_DELAY', async () => {
    const all = docs(await render([...required, 'api.preStopSeconds=7', 'api.drainDelaySeconds=11']));
    const pod = podOf(find(all, 'Deployment', 'delivery-delivery-api'));
    const api = pod.containers[0]!;
    expect(api.lifecycle!.preStop.exec.command).toEqual(['sleep', '7']);
    expect(env(api).SHUTDOWN_DRAIN_DELAY).toBe('11s');
    // preStop, then the drain delay, then SHUTDOWN_GRACE (10 s default) with a margin.
    expect(pod.terminationGracePeriodSeconds).toBe(7 + 11 + 30);
    const worker = podOf(find(all, 'Deployment', 'delivery-delivery-worker'));
    expect(env(worker.containers[0]!).WORKER_SHUTDOWN_GRACE).toBe('30s');
    expect(worker.terminationGracePeriodSeconds).toBe(30 + 30);
  }, 60_000);
});
