/**
 * The part of js-yaml 4 (MIT) the generator and compare use, merged into the declaration of
 * src/validation/manifest/js-yaml.d.ts (@types/js-yaml is not a dependency; drop both if it becomes one).
 */
declare module 'js-yaml' {
  export interface DumpOptions {
    lineWidth?: number;
    noRefs?: boolean;
    quotingType?: "'" | '"';
  }

  export function dump(value: unknown, options?: DumpOptions): string;
  export function loadAll(text: string): unknown[];
}
