import type { CoreServices } from '../../../src/runtime/services';
import {
  resolveServices,
  ServiceGraphError,
  type ServiceName,
  type ServiceProvider,
  type ServiceProviders,
} from '../../../src/runtime/service-provider';
import { actionRoles, DOMAIN_MODULES } from '../../../src/runtime/modules';
import { ACTION_ROLES } from '../../../src/iam/action-roles';

/** Service providers (docs/decisions/0007-service-providers.md): the module list resolved in dependency order. */

const core = { config: { name: 'core' } } as unknown as CoreServices;

/**
 * A provider over names the test invents: the resolver works on names, the types on the real DomainServices, so the
 * invented names are read as service names and the deps as a plain record.
 */
function fake(needs: string[], build: (deps: Record<string, unknown>) => unknown): ServiceProvider<unknown> {
  return { needs: needs as ServiceName[], build: (deps) => build({ ...deps }) };
}

/** A kernel that builds `authorization` (only its name counts for the resolver). */
const KERNEL_AUTHORIZATION = { authorization: undefined };

function modules(...list: [string, Record<string, ServiceProvider<unknown>>][]) {
  return list.map(([name, services]) => ({ name, services: services as ServiceProviders }));
}

describe('service providers', () => {
  it('builds each service once, after what it needs, whatever the module order', () => {
    const order: string[] = [];
    const built = resolveServices(
      core,
      modules(
        ['late', { c: fake(['b', 'a'], (d) => (order.push('c'), `c(${String(d.b)},${String(d.a)})`)) }],
        ['early', { b: fake(['a'], (d) => (order.push('b'), `b(${String(d.a)})`)) }],
        ['first', { a: fake([], (d) => (order.push('a'), `a:${(d.config as { name: string }).name}`)) }],
      ),
      {},
    ) as unknown as Record<string, unknown>;
    expect(order).toEqual(['a', 'b', 'c']);
    expect(built).toMatchObject({ a: 'a:core', b: 'b(a:core)', c: 'c(b(a:core),a:core)' });
  });

  it('hands a provider only the services it named', () => {
    let seen: string[] = [];
    resolveServices(
      core,
      modules(['m', { a: fake([], () => 1), b: fake([], () => 2), c: fake(['a'], (d) => (seen = Object.keys(d))) }]),
      {},
    );
    expect(seen.sort()).toEqual(['a', 'config']);
  });

  it('refuses a cycle at startup, naming it', () => {
    const cyclic = modules(
      ['x', { a: fake(['b'], () => 1) }],
      ['y', { b: fake(['c'], () => 2), c: fake(['a'], () => 3) }],
    );
    expect(() => resolveServices(core, cyclic, {})).toThrow(new ServiceGraphError('service cycle: a -> b -> c -> a'));
  });

  it('refuses a need no module provides, naming who needs it', () => {
    expect(() => resolveServices(core, modules(['x', { a: fake(['ghost'], () => 1) }]), {})).toThrow(
      'service a needs ghost, which no module provides',
    );
  });

  it('refuses a service provided twice, or one the kernel builds', () => {
    const twice = modules(['x', { a: fake([], () => 1) }], ['y', { a: fake([], () => 2) }]);
    expect(() => resolveServices(core, twice, {})).toThrow('service a is provided by both x and y');
    const kernel = modules(['x', { authorization: fake([], () => 1) }]);
    expect(() => resolveServices(core, kernel, KERNEL_AUTHORIZATION)).toThrow(
      'service authorization is provided by both the kernel and x',
    );
  });

  it('resolves the real module list without a cycle or a missing need', () => {
    const names: string[] = [];
    const recording = DOMAIN_MODULES.map((m) => ({
      name: m.name,
      services: Object.fromEntries(
        Object.entries(m.services ?? {}).map(([name, p]) => [
          name,
          fake([...(p as ServiceProvider<unknown>).needs], () => names.push(name)),
        ]),
      ) as ServiceProviders,
    }));
    resolveServices(core, recording, KERNEL_AUTHORIZATION);
    expect(names).toContain('removal');
    expect(names.indexOf('projects')).toBeLessThan(names.indexOf('releases'));
  });
});

describe('the action vocabulary', () => {
  it('joins the kernel actions with every module’s, and names who declares an action twice', () => {
    const table = actionRoles({ 'org.read': 'viewer' }, [
      { name: 'a', actions: { 'org.a.read': 'viewer' } },
      { name: 'b', actions: { 'org.b.write': 'member' } },
    ]);
    expect(table).toEqual({ 'org.read': 'viewer', 'org.a.read': 'viewer', 'org.b.write': 'member' });
    expect(() =>
      actionRoles({}, [
        { name: 'a', actions: { 'org.x.read': 'viewer' } },
        { name: 'b', actions: { 'org.x.read': 'admin' } },
      ]),
    ).toThrow('action org.x.read is declared by both a and b');
    expect(() => actionRoles({ 'org.read': 'viewer' }, [{ name: 'a', actions: { 'org.read': 'owner' } }])).toThrow(
      'action org.read is declared by both the kernel and a',
    );
  });

  it('keeps only the organization and its members in the kernel; the real modules declare no action twice', () => {
    expect(Object.keys(ACTION_ROLES).every((action) => /^org\.(read|update|delete|members\.)/.test(action))).toBe(true);
    expect(Object.keys(actionRoles()).length).toBeGreaterThan(Object.keys(ACTION_ROLES).length + 100);
  });
});
