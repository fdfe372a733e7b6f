/**
 * Kubernetes manifest validation (issue 4): validate manifests against 1.25..1.32, list deprecations,
 * browse schemas, check and use CRDs. Build one ValidationEngine at the composition root, `await init()`,
 * and pass it on; see engine.ts for the errors and their HTTP statuses.
 */
export { ValidationEngine, type EngineOptions, type ValidateOptions } from './engine';
export { checkCrd } from './crd/check-crd';
export type { CrdRecord, CrdVersion } from './crd/crd-types';
export {
  ManifestRejected,
  InvalidCrd,
  UnsupportedCrdPattern,
  UnsupportedK8sVersion,
  SchemaRegistryNotReady,
  type ManifestRejectionCode,
} from './errors';
export { manifestResources, type ManifestResource } from './validate-manifest';
export { DEFAULT_LIMITS, type ManifestLimits } from './manifest/limits';
export { SUPPORTED_K8S_VERSIONS, isSupportedVersion, type K8sVersion } from './versions';
export type * from './types';
