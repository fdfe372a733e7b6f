import type Ajv from 'ajv';
import type { Options } from 'ajv';

let constructor: typeof Ajv | undefined;

/**
 * A new Ajv instance, with ajv itself loaded on first use: requiring it costs about 75 ms, which the CLI's
 * start-up spends only when a validator must be compiled (the built-in kinds come precompiled from
 * dist/validators, see scripts/build-validators.ts).
 */
export function newAjv(options: Options): Ajv {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose (see above)
  constructor ??= (require('ajv') as { default: typeof Ajv }).default;
  return new constructor(options);
}
