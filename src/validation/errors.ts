import { AppError, InvalidInput, ServiceUnavailable } from '../errors';

export type ManifestRejectionCode =
  | 'TOO_LARGE'
  | 'TOO_MANY_DOCUMENTS'
  | 'TOO_MANY_RESOURCES'
  | 'TOO_DEEP'
  | 'TOO_MANY_NODES'
  | 'ALIAS_LIMIT'
  | 'DUPLICATE_KEY'
  | 'UNKNOWN_TAG'
  | 'UNPARSEABLE';

/**
 * The whole manifest is refused before any resource is validated: it is too big (413) or hostile in shape
 * (400). A plain syntax error is not a rejection but an error result of its document.
 */
export class ManifestRejected extends AppError {
  readonly status: 400 | 413;
  constructor(
    readonly code: ManifestRejectionCode,
    message: string,
  ) {
    super(message);
    this.status = code === 'TOO_LARGE' ? 413 : 400;
  }
}

export class InvalidCrd extends InvalidInput {
  constructor(reason: string) {
    super(`invalid CRD: ${reason}`);
  }
}

export class UnsupportedK8sVersion extends InvalidInput {
  constructor(version: string, supported: readonly string[]) {
    super(`unsupported Kubernetes version "${version}": version must be one of ${supported.join(', ')}`);
  }
}

export class SchemaRegistryNotReady extends ServiceUnavailable {
  constructor() {
    super('K8s schema registry not initialized');
  }
}
