/**
 * The reference cluster agent: `npm run agent -- --server host:port (--join-token T | --credential-file F) [--simulate]`.
 * See docs/clusters.md for the flags and a Deployment manifest.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { AgentClient } from '../src/agent/agent-client';
import { AgentRunner } from '../src/agent/agent-runner';
import { SimulatedCluster } from '../src/agent/simulated-cluster';

const USAGE = `usage: npm run agent -- --server host:port (--join-token T | --credential-file F) --simulate
  [--credential-file F]   where the credential is kept (written after joining, read when no join token is given)
  [--tls] [--ca FILE]     TLS to the server (system roots, or this CA)
  [--interval 10s]        heartbeat interval
  [--kubernetes-version v1.31.2] [--drift] [--drift-file FILE]   what the simulated cluster reports`;

function durationMs(raw: string): number {
  const match = /^(\d+)(ms|s|m)?$/.exec(raw);
  if (!match) throw new Error(`bad duration ${raw}`);
  return Number(match[1]) * ({ ms: 1, s: 1000, m: 60_000 }[match[2] ?? 'ms'] ?? 1);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      server: { type: 'string' },
      'join-token': { type: 'string' },
      'credential-file': { type: 'string' },
      simulate: { type: 'boolean', default: false },
      tls: { type: 'boolean', default: false },
      ca: { type: 'string' },
      interval: { type: 'string', default: '10s' },
      'kubernetes-version': { type: 'string', default: 'v1.31.2' },
      drift: { type: 'boolean', default: false },
      'drift-file': { type: 'string' },
    },
  });
  const credentialFile = values['credential-file'];
  if (!values.server || (!values['join-token'] && !credentialFile)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (!values.simulate) {
    // Talking to a real API server is not built yet (docs/clusters.md, "What is left").
    process.stderr.write('only --simulate is implemented: the agent plays the cluster itself\n');
    return 2;
  }
  const log = (message: string, fields: Record<string, unknown> = {}) =>
    process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), message, ...fields })}\n`);
  const client = new AgentClient({ server: values.server, tls: values.tls, caPath: values.ca });
  if (values['join-token']) {
    const joined = await client.register(values['join-token']);
    log('joined', { clusterId: joined.clusterId });
    if (credentialFile) fs.writeFileSync(credentialFile, joined.agentCredential, { mode: 0o600 });
  } else {
    client.credential = fs.readFileSync(credentialFile!, 'utf8').trim();
  }
  const cluster = new SimulatedCluster({
    kubernetesVersion: values['kubernetes-version'],
    drift: values.drift,
    driftFile: values['drift-file'],
  });
  const runner = new AgentRunner(client, cluster, {
    intervalMs: durationMs(values.interval),
    agentVersion: 'reference-0.1.0',
    log,
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => runner.stop());
  const end = await runner.run();
  client.close();
  log('agent stopped', { reason: end });
  return end === 'stopped' ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`agent failed: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
