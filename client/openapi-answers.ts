import type { components, paths } from './openapi-types.generated';

/**
 * Names for the API's answers, derived from the generated OpenAPI types (never written by hand): the web app
 * (web/src/api/models.ts) and the CLI (cli/lib/api-types.ts) both take their response types from here.
 */
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Schema<K extends keyof components['schemas']> = components['schemas'][K];
/** One entry of a list answer (`{ items: [...] }`). */
export type Item<K extends keyof components['schemas']> = Schema<K> extends { items: (infer I)[] } ? I : never;

type Success<R> = {
  [S in keyof R]: S extends 200 | 201 | 202
    ? R[S] extends { content: { 'application/json': infer B } }
      ? B
      : never
    : never;
}[keyof R];
/** The JSON body route `P` answers `M` with on success; `void` for a route that answers 204. */
export type Answer<P extends keyof paths, M extends Method> = paths[P][M] extends { responses: infer R }
  ? [Success<R>] extends [never]
    ? void
    : Success<R>
  : never;
/** The routes that take method `M`. */
export type RouteOf<M extends Method> = {
  [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never;
}[keyof paths];
/** The `{name}` parameters of a route path, as strings. */
export type PathParams<P extends string> = P extends `${string}{${infer K}}${infer Rest}`
  ? { [N in K]: string } & PathParams<Rest>
  : unknown;
