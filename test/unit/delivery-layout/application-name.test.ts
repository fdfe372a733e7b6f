import {
  applicationName,
  parseApplicationName,
  type ApplicationParts,
} from '../../../src/delivery-layout/application-name';

/** Boundary slugs of every shape a DNS label can take: 1 char, digits, inner hyphens, the longest allowed. */
const LABELS = ['a', '0', 'a-b', 'ab--cd', 'x1-2y', 'z'.repeat(63), `a${'-'.repeat(61)}b`];
const SERVICES = ['a', '9', 'web-api', 's'.repeat(50), `a${'-'.repeat(48)}b`];

describe('Argo CD Application names', () => {
  it('are reversible and valid object names for every combination of boundary slugs', () => {
    const seen = new Set<string>();
    let count = 0;
    for (const project of LABELS)
      for (const tenant of LABELS)
        for (const environment of LABELS)
          for (const service of SERVICES) {
            const parts: ApplicationParts = { project, tenant, environment, service };
            const name = applicationName(parts);
            expect(parseApplicationName(name)).toEqual(parts);
            expect(name.length).toBeLessThanOrEqual(253);
            expect(name).toMatch(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/);
            seen.add(name);
            count += 1;
          }
    // Injective: distinct parts never share a name.
    expect(seen.size).toBe(count);
  });

  it('rejects names it did not make, and parts that are not slugs', () => {
    for (const name of ['a.b.c', 'a.b.c.d.e', 'A.b.c.d', 'a..c.d', '-a.b.c.d', `a.b.c.${'s'.repeat(51)}`]) {
      expect(parseApplicationName(name)).toBeNull();
    }
    expect(() => applicationName({ project: 'a.b', tenant: 't', environment: 'e', service: 's' })).toThrow();
  });
});
