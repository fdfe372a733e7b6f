/**
 * The part of js-yaml 4 (MIT) the manifest parser uses. Declared here because @types/js-yaml is not a
 * dependency; drop this file if it becomes one.
 */
declare module 'js-yaml' {
  export class Schema {}
  export const CORE_SCHEMA: Schema;

  export interface Mark {
    line: number;
    column: number;
    position: number;
  }

  export class YAMLException extends Error {
    reason: string;
    mark: Mark | undefined;
  }

  export interface LoadOptions {
    schema?: Schema;
    json?: boolean;
    /** Collections nested deeper than this throw (js-yaml >= 4.2, default 100). */
    maxDepth?: number;
    onWarning?: (warning: YAMLException) => void;
    /** Called as each node opens and closes, with the parser's state. */
    listener?: (event: 'open' | 'close', state: { kind: string | null; result: unknown }) => void;
  }

  export function load(text: string, options?: LoadOptions): unknown;
}
