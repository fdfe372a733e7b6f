import {
  Conflict,
  Forbidden,
  InvalidInput,
  NotFound,
  PayloadTooLarge,
  TooManyRequests,
  type AppError,
} from '../errors';

/** The error codes of the OCI distribution specification, with the status each answers with. */
export const OCI_ERROR_STATUS = {
  BLOB_UNKNOWN: 404,
  BLOB_UPLOAD_INVALID: 400,
  BLOB_UPLOAD_UNKNOWN: 404,
  DIGEST_INVALID: 400,
  MANIFEST_BLOB_UNKNOWN: 404,
  MANIFEST_INVALID: 400,
  MANIFEST_UNKNOWN: 404,
  NAME_INVALID: 400,
  NAME_UNKNOWN: 404,
  SIZE_INVALID: 400,
  UNAUTHORIZED: 401,
  DENIED: 403,
  UNSUPPORTED: 405,
  TOOMANYREQUESTS: 429,
} as const;
export type OciErrorCode = keyof typeof OCI_ERROR_STATUS;

/** An error of the `/v2/*` API, answered as `{"errors":[{"code","message","detail"}]}` (not the platform's shape). */
export class OciError extends Error {
  readonly headers: Record<string, string> = {};
  constructor(
    readonly code: OciErrorCode,
    message: string,
    readonly status: number = OCI_ERROR_STATUS[code],
  ) {
    super(message);
    this.name = 'OciError';
  }
}

/**
 * The same refusal in the platform's vocabulary, for registry work done on behalf of a `/api` route (a catalog upload
 * stores its artifact in the registry): a limit answers 429 or 413 there too, never 500 (docs/security.md A-84).
 */
export function asPlatformError(err: OciError): AppError {
  switch (err.status) {
    case 429:
      return new TooManyRequests(err.message, LIMIT_RETRY_SECONDS);
    case 413:
      return new PayloadTooLarge(err.message);
    case 409:
      return new Conflict(err.message);
    case 403:
      return new Forbidden(err.message);
    case 404:
      return new NotFound(err.message);
    default:
      return new InvalidInput(err.message);
  }
}

/** A count limit frees up when the caller deletes something, not with time: a minute is an honest hint. */
const LIMIT_RETRY_SECONDS = 60;
