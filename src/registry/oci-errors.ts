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
