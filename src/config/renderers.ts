import { type Env, readInt } from './parse';

/**
 * Bounds of every external renderer run (helm, kustomize): each process and each organization get a bounded share
 * (issue 42 M1, docs/registry.md "Renderer limits").
 */
export interface RendererSettings {
  /**
   * RENDER_MEMORY_MIB: address space of one renderer process (a hard limit; its RSS stays below it). Go reserves
   * about 700 MiB of address space at start, so below 768 the renderers cannot start.
   */
  memoryMiB: number;
  /** RENDER_CPU_SECONDS: CPU time of one renderer process (killed beyond it, whatever its wall time). */
  cpuSeconds: number;
  /** RENDER_CONCURRENCY: renderer processes one API or worker process runs at once. */
  perProcess: number;
  /** RENDER_CONCURRENCY_PER_ORG: renderer processes one organization runs at once in one process. */
  perOrganization: number;
  /** RENDER_QUEUE_WAIT_MS: how long a render waits for its turn before 429 (its organization) or 503 (the process). */
  queueWaitMs: number;
}

export function loadRendererSettings(env: Env): RendererSettings {
  return {
    memoryMiB: readInt(env, 'RENDER_MEMORY_MIB', 1024, 768, 65_536),
    cpuSeconds: readInt(env, 'RENDER_CPU_SECONDS', 30, 1, 3600),
    perProcess: readInt(env, 'RENDER_CONCURRENCY', 2, 1, 256),
    perOrganization: readInt(env, 'RENDER_CONCURRENCY_PER_ORG', 1, 1, 256),
    queueWaitMs: readInt(env, 'RENDER_QUEUE_WAIT_MS', 10_000, 0, 600_000),
  };
}
