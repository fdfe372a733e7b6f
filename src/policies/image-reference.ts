/** Container image references as the Docker CLI reads them, reduced to what the policy rules ask about. */
export interface ImageReference {
  /** Registry host (with port), `docker.io` when the reference names none. */
  registry: string;
  /** Repository path under the registry (`library/nginx` for `nginx`). */
  repository: string;
  /** Tag, absent when the reference has none (then the runtime pulls `latest`, unless a digest pins it). */
  tag?: string;
  digest?: string;
}

const DOCKER_HUB = 'docker.io';

/**
 * The first path component is a registry host only when it looks like one (a dot, a port or `localhost`), exactly
 * as `docker pull` decides; otherwise the image comes from Docker Hub.
 */
export function parseImageReference(image: string): ImageReference {
  const at = image.indexOf('@');
  const digest = at >= 0 ? image.slice(at + 1) : undefined;
  const named = at >= 0 ? image.slice(0, at) : image;
  const colon = named.lastIndexOf(':');
  const tagged = colon > named.lastIndexOf('/');
  const tag = tagged ? named.slice(colon + 1) : undefined;
  const name = tagged ? named.slice(0, colon) : named;
  const slash = name.indexOf('/');
  const first = slash >= 0 ? name.slice(0, slash) : '';
  const hasHost = slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost');
  let registry = hasHost ? first.toLowerCase() : DOCKER_HUB;
  if (registry === 'index.docker.io' || registry === 'registry-1.docker.io') registry = DOCKER_HUB;
  let repository = hasHost ? name.slice(slash + 1) : name;
  if (registry === DOCKER_HUB && !repository.includes('/')) repository = `library/${repository}`;
  return { registry, repository, ...(tag !== undefined ? { tag } : {}), ...(digest ? { digest } : {}) };
}

/**
 * An allowed entry is a registry host (`ghcr.io`) or a prefix of repositories on it (`ghcr.io/acme`); it matches
 * whole path components only, so `ghcr.io/acme` does not allow `ghcr.io/acme-evil/app`.
 */
export function registryAllows(entry: string, ref: ImageReference): boolean {
  const full = `${ref.registry}/${ref.repository}`;
  const wanted = entry.toLowerCase().replace(/\/+$/, '');
  const normalised = wanted === 'index.docker.io' ? DOCKER_HUB : wanted;
  return full === normalised || full.startsWith(`${normalised}/`);
}
