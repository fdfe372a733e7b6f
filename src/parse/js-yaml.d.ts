/** The loadAll form the bounded parse uses (merged into src/validation/manifest/js-yaml.d.ts). */
declare module 'js-yaml' {
  export function loadAll(text: string, iterator: null, options: LoadOptions): unknown[];
}
