import fs from 'node:fs';
import type { ApplicationMessage, CommandMessage, DriftedResourceMessage } from '../clusters/agent-protocol';

/** What the agent needs from a cluster: its facts, its applications and drift, and carrying out commands. */
export interface ClusterPort {
  kubernetesVersion(): Promise<string>;
  controllerHealth(): Promise<string>;
  applications(): Promise<ApplicationMessage[]>;
  drift(): Promise<DriftedResourceMessage[]>;
  execute(command: CommandMessage): Promise<{ succeeded: boolean; message: string }>;
}

export interface SimulationOptions {
  kubernetesVersion: string;
  /** A JSON file of drifted resources ([{resource, application, fields:[{path, desired, live}]}]), re-read each time. */
  driftFile?: string;
  /** Start with one drifted Deployment (the `--drift` flag). */
  drift?: boolean;
}

const SAMPLE_DRIFT: DriftedResourceMessage = {
  resource: 'Deployment/web/web',
  application: 'web',
  fields: [{ path: 'spec.replicas', desired: '3', live: '5' }],
};

/**
 * A cluster played in memory (`--simulate`): reports a version and a healthy controller, applies commands (sync clears
 * an application's drift, restart needs a known workload name), and drifts when told to by a flag or a file.
 */
export class SimulatedCluster implements ClusterPort {
  private driftNow: DriftedResourceMessage[];
  readonly executed: CommandMessage[] = [];

  constructor(private readonly opts: SimulationOptions) {
    this.driftNow = opts.drift ? [SAMPLE_DRIFT] : [];
  }

  kubernetesVersion = async () => this.opts.kubernetesVersion;
  controllerHealth = async () => 'Healthy';

  setKubernetesVersion(version: string): void {
    this.opts.kubernetesVersion = version;
  }

  setDrift(resources: DriftedResourceMessage[]): void {
    this.driftNow = resources;
  }

  async drift(): Promise<DriftedResourceMessage[]> {
    if (this.opts.driftFile && fs.existsSync(this.opts.driftFile)) {
      return JSON.parse(fs.readFileSync(this.opts.driftFile, 'utf8')) as DriftedResourceMessage[];
    }
    return this.driftNow;
  }

  async applications(): Promise<ApplicationMessage[]> {
    const drifted = new Set((await this.drift()).map((d) => d.application));
    return ['web'].map((name) => ({
      name,
      namespace: name,
      syncStatus: drifted.has(name) ? 'OutOfSync' : 'Synced',
      revision: 'HEAD',
      healthStatus: 'Healthy',
    }));
  }

  async execute(command: CommandMessage): Promise<{ succeeded: boolean; message: string }> {
    this.executed.push(command);
    switch (command.name) {
      case 'sync':
        this.driftNow = this.driftNow.filter(
          (d) => command.application !== '' && d.application !== command.application,
        );
        return { succeeded: true, message: `synced ${command.application || 'all applications'}` };
      case 'refresh':
        return { succeeded: true, message: `refreshed ${command.application || 'all applications'}` };
      case 'restart': {
        const w = command.workload;
        if (!w) return { succeeded: false, message: 'restart needs a workload' };
        return { succeeded: true, message: `restarted ${w.kind}/${w.namespace}/${w.name}` };
      }
      default:
        return { succeeded: false, message: `unknown command ${command.name}` };
    }
  }
}
