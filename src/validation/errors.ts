import { AppError, InvalidInput, ServiceUnavailable } from '../errors';

export type ManifestRejectionCode =
  | 'TOO_LARGE'
  | 'TOO_MANY_DOCUMENTS'
  | 'TOO_MANY_RESOURCES'
  | 'TOO_DEEP'
  | 'TOO_MANY_NODES'
  | 'ALIAS_LIMIT'
  | 'DUPLICATE_KEY'
  | 'UNKNOWN_TAG';

/**
 * The whole manifest is refused before any resource is validated: it is too big (413) or hostile in shape
 * (400). Which is which:
 * - whole request, this error: TOO_LARGE (413, over maxBytes), TOO_MANY_DOCUMENTS, TOO_MANY_RESOURCES,
 *   TOO_DEEP (depth limit, or a parser stack overflow), TOO_MANY_NODES, ALIAS_LIMIT (alias count,
 *   expansion or a recursive alias), DUPLICATE_KEY and UNKNOWN_TAG (400). These are attacks or tooling
 *   bugs, not mistakes in one resource, and some stop the parser before the other documents are read.
 * - per document, an error result: a YAML syntax error, a document that is not a mapping, and every
 *   check of the spec's table.
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

/** A CRD `pattern` the linear-time regular expression engine cannot run (backreference, lookaround, bad syntax). */
export class UnsupportedCrdPattern extends InvalidCrd {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: unsupported pattern: ${reason}`);
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
