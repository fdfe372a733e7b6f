import type { RendererSettings } from '../config/renderers';
import type { KubeTools } from './kube-tools';
import { createRenderQueue } from './render-queue';
import { probeUnshare, runRenderer, type RunRequest } from './renderer-process';

/**
 * helm and kustomize as every caller runs them: through the render queue of the process (a share per organization)
 * and the one sandboxed process runner (src/tools/renderer-process.ts), under the configured caps.
 */
export interface Renderers {
  /** Runs `tool` with `args` for an organization; answers its standard output or throws (422, 429, 503). */
  run(tool: keyof KubeTools, organizationId: string, args: string[], req: RunRequest): Promise<string>;
}

export function createRenderers(tools: KubeTools, settings: RendererSettings): Renderers {
  const queue = createRenderQueue({
    perProcess: settings.perProcess,
    perOrganization: settings.perOrganization,
    waitMs: settings.queueWaitMs,
  });
  let unshare: string | null | undefined;
  return {
    async run(tool, organizationId, args, req) {
      const binary = await tools[tool]();
      unshare ??= probeUnshare();
      const caps = { memoryMiB: settings.memoryMiB, cpuSeconds: settings.cpuSeconds, unshare };
      return queue.run(organizationId, () => runRenderer(binary, args, req, caps));
    },
  };
}
