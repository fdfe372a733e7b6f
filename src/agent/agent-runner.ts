import { isRefused, type AgentClient } from './agent-client';
import type { ClusterPort } from './simulated-cluster';

export interface AgentRunOptions {
  intervalMs: number;
  agentVersion: string;
  log: (message: string, fields?: Record<string, unknown>) => void;
}

/** Why the loop ended: asked to stop, or the platform refused the credential (rotated out, cluster deleted). */
export type AgentEnd = 'stopped' | 'credential refused';

/**
 * The agent's loop: heartbeat with the cluster's facts, carry out the commands the answer brings and report each
 * result, then report drift and application status when they changed since the last accepted report.
 */
export class AgentRunner {
  private stopped = false;
  private wake: (() => void) | null = null;
  private lastDrift = '';
  private lastApplications = '';

  constructor(
    private readonly client: AgentClient,
    private readonly cluster: ClusterPort,
    private readonly opts: AgentRunOptions,
  ) {}

  async tick(): Promise<void> {
    const { commands } = await this.client.heartbeat({
      kubernetesVersion: await this.cluster.kubernetesVersion(),
      agentVersion: this.opts.agentVersion,
      controllerHealth: await this.cluster.controllerHealth(),
    });
    for (const command of commands) {
      const outcome = await this.cluster.execute(command);
      this.opts.log('command', { id: command.id, name: command.name, ...outcome });
      await this.client.reportCommandResult({ commandId: command.id, ...outcome });
    }
    const drift = await this.cluster.drift();
    if (JSON.stringify(drift) !== this.lastDrift) {
      await this.client.reportDrift(drift);
      this.lastDrift = JSON.stringify(drift);
    }
    const applications = await this.cluster.applications();
    if (JSON.stringify(applications) !== this.lastApplications) {
      await this.client.reportSync(applications);
      this.lastApplications = JSON.stringify(applications);
    }
  }

  async run(): Promise<AgentEnd> {
    while (!this.stopped) {
      try {
        await this.tick();
      } catch (err) {
        if (isRefused(err)) {
          this.opts.log('credential refused; stopping', { error: String((err as Error).message) });
          return 'credential refused';
        }
        this.opts.log('call failed; retrying', { error: String((err as Error).message) });
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.opts.intervalMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return 'stopped';
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }
}
