import type { CustomKinds, SchemaTarget } from '../checks/api-version';
import type { CrdRecord } from './crd-types';
import type { CrdValidators } from './crd-validators';

/** The served versions of an organization's CRDs, compiled on first use (most requests use none of them). */
export function customKindsFor(crds: readonly CrdRecord[], validators: CrdValidators): CustomKinds {
  const kinds = new Map<string, () => SchemaTarget>();
  for (const crd of crds) {
    for (const version of crd.versions) {
      const apiVersion = `${crd.group}/${version.name}`;
      const deprecationWarning = version.deprecated
        ? (version.deprecationWarning ?? `${apiVersion} ${crd.kind} is deprecated`)
        : undefined;
      kinds.set(`${apiVersion}\n${crd.kind}`, () => ({
        source: 'crd',
        validate: validators.validatorFor(crd, version),
        ...(deprecationWarning !== undefined ? { deprecationWarning } : {}),
      }));
    }
  }
  return kinds;
}
