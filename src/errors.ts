/**
 * The one error vocabulary of the service. Domain code throws these; a single Koa middleware maps them to HTTP.
 * Messages are plain sentences shown to API clients as `{"error": message}`.
 */
export abstract class AppError extends Error {
  abstract readonly status: number;
  /** Extra response headers, e.g. Retry-After for rate limits. */
  readonly headers: Record<string, string> = {};
  /**
   * Fields answered beside `error` (`{"error": message, ...fields}`): what a refused caller still needs to know, e.g.
   * a duplicate webhook's recorded outcome or the validation result that blocked a release.
   */
  readonly fields: Record<string, unknown>;
  constructor(message: string, fields: Record<string, unknown> = {}) {
    super(message);
    this.name = new.target.name;
    this.fields = fields;
  }
}

export class InvalidInput extends AppError {
  readonly status = 400;
}
export class Unauthorized extends AppError {
  readonly status = 401;
}
export class Forbidden extends AppError {
  readonly status = 403;
}
export class NotFound extends AppError {
  readonly status = 404;
}
export class Conflict extends AppError {
  readonly status = 409;
}
export class PayloadTooLarge extends AppError {
  readonly status = 413;
}
export class Unprocessable extends AppError {
  readonly status = 422;
}
export class TooManyRequests extends AppError {
  readonly status = 429;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  }
}
export class ServiceUnavailable extends AppError {
  readonly status = 503;
}
