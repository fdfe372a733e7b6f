import type { Registry } from 'prom-client';
import { readinessAnswer, type Readiness } from '../../../src/http/readiness';
import type { RouteDef } from '../../route-def';

/** Probes follow the Kubernetes guidance: liveness is in-process only, readiness checks dependencies. */
export function healthRoutes(readiness: Readiness, registry: Registry | null): RouteDef[] {
  const routes: RouteDef[] = [
    {
      method: 'get',
      path: '/healthz',
      summary: 'Liveness: the process is up',
      tag: 'health',
      access: { kind: 'public' },
      handler: async (ctx) => {
        ctx.body = { status: 'ok' };
      },
    },
    {
      method: 'get',
      path: '/readyz',
      summary: 'Readiness: the engines, the schema registry and the start-up self-checks (docs/operations.md)',
      tag: 'health',
      access: { kind: 'public' },
      handler: async (ctx) => {
        const answer = await readinessAnswer(readiness);
        ctx.status = answer.status;
        ctx.body = answer.body;
      },
    },
  ];
  if (registry) {
    routes.push({
      method: 'get',
      path: '/metrics',
      summary: 'Prometheus metrics',
      tag: 'health',
      access: { kind: 'public' },
      handler: async (ctx) => {
        ctx.type = registry.contentType;
        ctx.body = await registry.metrics();
      },
    });
  }
  return routes;
}
