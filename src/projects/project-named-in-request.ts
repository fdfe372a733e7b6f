import { InvalidInput, NotFound } from '../errors';

/** The spec's answer (Errors, 400) for a project named in a request's body or query that the organization lacks. */
export const PROJECT_NOT_IN_ORGANIZATION = 'project not found in active organization';

/**
 * The project lookup for a slug named in a request's body or query: the spec's 400 `project not found in active
 * organization` where the path lookup answers 404 (docs/decisions/0008). Missing and foreign slugs still answer alike
 * (the same lookup runs, its misses counted), so nothing tells another organization's projects apart.
 */
export function namedInRequest<A extends unknown[], T>(lookup: (...args: A) => Promise<T>) {
  return async (...args: A): Promise<T> => {
    try {
      return await lookup(...args);
    } catch (err) {
      if (err instanceof NotFound) throw new InvalidInput(PROJECT_NOT_IN_ORGANIZATION);
      throw err;
    }
  };
}
