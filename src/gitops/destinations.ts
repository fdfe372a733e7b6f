import { dnsLabel, serverClusterKey } from '../argocd-semantics/cluster-key';
import { DEFAULT_NAMESPACE_TEMPLATE, IN_CLUSTER_SERVER } from '../projects/argocd-settings';

export { dnsLabel, serverClusterKey };

/**
 * Where one tenant's Applications of one environment deploy (docs/argocd.md "Destinations"): `cluster` is the key of
 * the destination cluster (a bound cluster's name, `in-cluster`, or a label made of an explicit server URL), which
 * names its bootstrap root; `argo` is the Argo CD destination (`name` of a bound cluster as registered in Argo CD, or
 * `server`).
 */
export interface Destination {
  cluster: string;
  argo: { name: string; namespace: string } | { server: string; namespace: string };
}

/** A cluster binding as the generator reads it: cluster name and the project's tenant and environment slugs. */
export interface ClusterBindingRef {
  cluster: string;
  /** Empty: every tenant of the project. */
  tenants: string[];
  environments: string[];
}

export interface DestinationEnvironment {
  slug: string;
  destination: { namespaceTemplate: string | null; server: string | null; allowSharedNamespace: boolean };
}

export interface DestinationInput {
  project: string;
  /** Each tenant's slug and own namespace template (null: the environment's or the project's). */
  tenants: { slug: string; namespaceTemplate: string | null }[];
  environments: DestinationEnvironment[];
  /** The project's namespace template (default `{tenant}-{environment}`). */
  namespaceTemplate?: string;
  /** Oldest first: the first binding naming a tenant and environment decides its cluster. */
  bindings: ClusterBindingRef[];
}

/** The template's placeholders replaced: `{project}`, `{tenant}`, `{environment}`. */
export function namespaceOf(template: string, parts: { project: string; tenant: string; environment: string }): string {
  return dnsLabel(template.replace(/\{(project|tenant|environment)\}/g, (_, key: keyof typeof parts) => parts[key]));
}

export const destinationKey = (tenant: string, environment: string) => `${tenant}/${environment}`;

/**
 * Every tenant-and-environment pair's destination, and the conflicts: two pairs rendering to the same cluster and
 * namespace (so the same object names) unless both environments allow sharing.
 */
export function resolveDestinations(input: DestinationInput): {
  destinations: Map<string, Destination>;
  conflicts: string[];
} {
  const destinations = new Map<string, Destination>();
  const users = new Map<string, { pair: string; shared: boolean }[]>();
  for (const env of input.environments) {
    const fallback = env.destination.namespaceTemplate ?? input.namespaceTemplate ?? DEFAULT_NAMESPACE_TEMPLATE;
    for (const { slug: tenant, namespaceTemplate } of input.tenants) {
      // The most specific template wins: the tenant's, else the environment's, else the project's.
      const template = namespaceTemplate ?? fallback;
      const namespace = namespaceOf(template, { project: input.project, tenant, environment: env.slug });
      const bound = input.bindings.find(
        (b) => b.environments.includes(env.slug) && (b.tenants.length === 0 || b.tenants.includes(tenant)),
      );
      const destination: Destination = env.destination.server
        ? { cluster: serverClusterKey(env.destination.server), argo: { server: env.destination.server, namespace } }
        : bound
          ? { cluster: bound.cluster, argo: { name: bound.cluster, namespace } }
          : { cluster: 'in-cluster', argo: { server: IN_CLUSTER_SERVER, namespace } };
      destinations.set(destinationKey(tenant, env.slug), destination);
      const place = `${destination.cluster}/${namespace}`;
      users.set(place, [
        ...(users.get(place) ?? []),
        { pair: destinationKey(tenant, env.slug), shared: env.destination.allowSharedNamespace },
      ]);
    }
  }
  const conflicts = [...users]
    .filter(([, pairs]) => pairs.length > 1 && pairs.some((p) => !p.shared))
    .map(
      ([place, pairs]) =>
        `${pairs.map((p) => p.pair).join(', ')} render to the same cluster and namespace ${place} ` +
        '(set destination.allowSharedNamespace on their environments to allow it)',
    );
  return { destinations, conflicts };
}
