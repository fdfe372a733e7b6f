import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Unprocessable } from '../errors';
import { dumpYaml } from '../parse/bounded-parse';
import {
  applyOverrides,
  chartValues,
  objectsOf,
  type KubeObject,
  type RenderOverrides,
} from '../tools/kustomize-render';
import { CHART_ARCHIVE_LIMITS, filesOfTarGz } from '../archive/tar-gz';
import { RendererMissing } from '../tools/renderer-process';
import type { Renderers } from '../tools/renderers';

const HELM_TIMEOUT_MS = 30_000;
const HELM_MAX_OUTPUT = 16 * 1024 * 1024;

export interface ChartRenderRequest {
  /** `<name>:<version>`, for messages. */
  ref: string;
  /** The chart layer (a `.tgz` as `helm package` writes it). */
  archive: Buffer;
  releaseName: string;
  namespace: string;
  kubernetesVersion: string;
  /** The workload's chart values; `image.repository`, `image.tag` and `replicaCount` come from the workload. */
  values: Record<string, unknown>;
  overrides: RenderOverrides;
}

/**
 * Without helm: the chart's templates that hold no template action, as they are; a chart with any templated file
 * answers 422 naming the missing renderer.
 */
async function renderPlain(missing: string, req: ChartRenderRequest): Promise<KubeObject[]> {
  const templates = [...(await filesOfTarGz(req.archive, CHART_ARCHIVE_LIMITS))].filter(([name]) =>
    /^[^/]+\/templates\/(?:[^/]+\/)*[^_/][^/]*\.ya?ml$/.test(name),
  );
  const templated = templates.filter(([, text]) => text.includes('{{')).map(([name]) => name);
  if (templated.length > 0) {
    throw new Unprocessable(
      `chart ${req.ref} has templated files (${templated.slice(0, 5).join(', ')}); rendering them needs the helm ` +
        `binary, which was not found (${missing})`,
    );
  }
  return templates.flatMap(([name, text]) => objectsOf(name, text.toString('utf8')));
}

/**
 * Renders a chart version for one target of an organization with `helm template`, run by the sandboxed renderer
 * (src/tools/renderers.ts: the organization's share of the queue, memory and CPU caps, no network), when the helm
 * binary is present (HELM_PATH, default the bundled one), else its non-templated manifests; the workload's image tag
 * and replicas are applied to the result either way (docs/registry.md).
 */
export async function renderChart(
  renderers: Renderers,
  organizationId: string,
  req: ChartRenderRequest,
): Promise<KubeObject[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'chart-render-'));
  try {
    await fs.writeFile(path.join(dir, 'chart.tgz'), req.archive);
    await fs.writeFile(path.join(dir, 'values.yaml'), dumpYaml(chartValues(req.values, req.overrides)));
    const args = [
      'template',
      req.releaseName,
      path.join(dir, 'chart.tgz'),
      '--values',
      path.join(dir, 'values.yaml'),
      '--namespace',
      req.namespace,
      '--kube-version',
      req.kubernetesVersion,
    ];
    let objects: KubeObject[];
    try {
      const bounds = { timeoutMs: HELM_TIMEOUT_MS, maxOutputBytes: HELM_MAX_OUTPUT, what: 'helm template', dir };
      objects = objectsOf(`chart ${req.ref}`, await renderers.run('helm', organizationId, args, bounds));
    } catch (err) {
      if (!(err instanceof RendererMissing)) throw err;
      objects = await renderPlain(err.message, req);
    }
    return applyOverrides(objects, req.overrides);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
