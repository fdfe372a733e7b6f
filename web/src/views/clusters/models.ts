/** Shapes of the cluster routes' answers (docs/clusters.md). */

export interface Cluster {
  id: string;
  name: string;
  description: string;
  status: 'Connected' | 'Disconnected';
  lastHeartbeatAt: string | null;
  kubernetesVersion: string | null;
  agentVersion: string | null;
  controllerHealth: string | null;
  applications: { name: string; namespace: string; syncStatus: string; healthStatus: string }[];
}

export interface Drift {
  id: string;
  resource: string;
  application: string;
  fields: { path: string; desired: string; live: string }[];
  status: 'open' | 'resolved';
  detectedAt: string;
}

export interface ClusterCommand {
  id: string;
  command: string;
  params: { application?: string; workload?: { kind: string; namespace: string; name: string } };
  status: string;
  result: { message: string } | null;
  requestedBy: string;
  createdAt: string;
  finishedAt: string | null;
}

export interface AgentBinding {
  id: string;
  clusterId: string;
  project: { id: string; slug: string };
  tenants: { id: string; slug: string }[];
  environments: { id: string; environment: string; kubernetesVersion: string }[];
}
