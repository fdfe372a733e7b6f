import { createHash } from 'node:crypto';

/**
 * How the platform names a destination cluster, shared by the generator (src/gitops/destinations.ts, which names
 * roots after it) and the semantics check (which finds each cluster's Applications by it). A leaf module: the
 * check runs in delivery-validate, which must not load the generator.
 */

/** The API server of the cluster Argo CD runs in (Argo CD's `in-cluster`). */
export const IN_CLUSTER_SERVER = 'https://kubernetes.default.svc';

const hash8 = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);

/** A DNS label of at most 63 characters: longer ones keep their first 54 characters and a hash of the whole. */
export function dnsLabel(text: string): string {
  const label = text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (label.length <= 63 && label.length > 0) return label;
  return `${label.slice(0, 54).replace(/-+$/, '')}-${hash8(text)}`.replace(/^-/, '');
}

/** The cluster key of an explicit server URL: its host and port as a DNS label. */
export function serverClusterKey(server: string): string {
  return server === IN_CLUSTER_SERVER ? 'in-cluster' : dnsLabel(server.replace(/^https:\/\//, ''));
}
