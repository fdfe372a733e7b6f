import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'route' | 'method' | 'status'>;
  workflowStarts: Counter<'workflow'>;
  activityFailures: Counter<'activity'>;
  /** Lookups of another organization's identifiers (answered 404 like missing ones): the operators' probe signal. */
  crossOrgDenials: Counter<'resource_type'>;
  /** Agent protocol calls (gRPC) by method and status code, as the server handled them. */
  agentCallDuration: Histogram<'method' | 'code'>;
}

/** One registry per process; API and worker processes each expose theirs. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route template, method and status',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    workflowStarts: new Counter({
      name: 'temporal_workflow_starts_total',
      help: 'Workflows started by this process',
      labelNames: ['workflow'],
      registers: [registry],
    }),
    activityFailures: new Counter({
      name: 'temporal_activity_failures_total',
      help: 'Activity attempts that failed in this process',
      labelNames: ['activity'],
      registers: [registry],
    }),
    crossOrgDenials: new Counter({
      name: 'security_cross_organization_denials_total',
      help: "Lookups by identifier that named another organization's resource",
      labelNames: ['resource_type'],
      registers: [registry],
    }),
    agentCallDuration: new Histogram({
      name: 'agent_call_duration_seconds',
      help: 'Agent protocol (gRPC) call duration by method and status code',
      labelNames: ['method', 'code'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  };
}
