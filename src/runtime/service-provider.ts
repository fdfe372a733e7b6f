import type { AuthorizationChain } from '../iam/authorization-chain';
import type { CoreServices } from './services';

/**
 * The domain services, each built once per process from the core services. The kernel's authorization chain is the
 * only entry named here: every domain adds its own from its manifest (`src/<domain>/module.ts`) with
 * `declare module '../runtime/service-provider' { interface DomainServices { ... } }` beside the provider that
 * builds it, so the type stays exact and nothing shared is edited (docs/decisions/0007-service-providers.md).
 */
export interface DomainServices {
  /** Organization role -> resource grants -> approval policy hooks, for every organization route (src/iam). */
  authorization: AuthorizationChain;
}

export type ServiceName = keyof DomainServices;

/** What a provider's build receives: the core services and exactly the domain services it named. */
export type ProviderDeps<N extends ServiceName> = CoreServices & Pick<DomainServices, N>;

/** How one domain service is built: the services it needs first, then `build` (called once, in dependency order). */
export interface ServiceProvider<T> {
  readonly needs: readonly ServiceName[];
  build(deps: CoreServices & DomainServices): T;
}

/** The services a module builds, by name. */
export type ServiceProviders = { readonly [K in ServiceName]?: ServiceProvider<DomainServices[K]> };

/** A provider of one service: `provide(['projects'], (deps) => createPinService({ projects: deps.projects }))`. */
export function provide<const N extends ServiceName, T>(
  needs: readonly N[],
  build: (deps: ProviderDeps<N>) => T,
): ServiceProvider<T> {
  return { needs, build };
}

/** The storage parts most services are built from (`{ db, audit, misses }`). */
export function owned({ db, audit, misses }: CoreServices): Pick<CoreServices, 'db' | 'audit' | 'misses'> {
  return { db, audit, misses };
}

/** Thrown at startup when the module list cannot be built: a cycle, a missing need, a service provided twice. */
export class ServiceGraphError extends Error {}

/**
 * Builds every service the modules provide, each after the services it needs (module order otherwise), on top of
 * the kernel's services. A cycle, a need no module provides and a name provided twice are startup errors naming them.
 */
export function resolveServices(
  core: CoreServices,
  modules: readonly { name: string; services?: ServiceProviders }[],
  kernel: Partial<DomainServices>,
): DomainServices {
  const providers = new Map<string, { module: string; provider: ServiceProvider<unknown> }>();
  for (const module of modules) {
    for (const [name, provider] of Object.entries(module.services ?? {}) as [string, ServiceProvider<unknown>][]) {
      const owner = name in kernel ? 'the kernel' : providers.get(name)?.module;
      if (owner) throw new ServiceGraphError(`service ${name} is provided by both ${owner} and ${module.name}`);
      providers.set(name, { module: module.name, provider });
    }
  }
  const built = new Map<string, unknown>(Object.entries(kernel));
  const resolve = (name: string, path: readonly string[]): unknown => {
    if (built.has(name)) return built.get(name);
    const entry = providers.get(name);
    if (!entry) throw new ServiceGraphError(`service ${path.at(-1)} needs ${name}, which no module provides`);
    if (path.includes(name)) {
      throw new ServiceGraphError(`service cycle: ${[...path.slice(path.indexOf(name)), name].join(' -> ')}`);
    }
    const needs = entry.provider.needs.map((need) => [need, resolve(need, [...path, name])]);
    const value = entry.provider.build({ ...core, ...Object.fromEntries(needs) } as CoreServices & DomainServices);
    built.set(name, value);
    return value;
  };
  for (const name of providers.keys()) resolve(name, []);
  return Object.fromEntries(built) as unknown as DomainServices;
}
