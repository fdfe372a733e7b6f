import type Ajv from 'ajv';
import type { FormatDefinition } from 'ajv';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * resource.ParseQuantity's grammar: signed decimal, then a binary-SI, decimal-SI or exponent suffix. The groups (number,
 * binary prefix, decimal suffix, exponent) are what api-rules/quantity.ts computes values from.
 */
export const QUANTITY = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:([KMGTPE])i|([numkMGTPE])|[eE]([+-]?\d+))?$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** metav1.Time unmarshals with time.RFC3339: a zone is required. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;
/** CRD `date-time` goes through go-openapi strfmt, which also takes a local time without zone. */
const STRFMT_DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:?\d{2})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** time.ParseDuration ("1h30m", "250ms", "0"), or strfmt's "<n> <unit>" form ("22 ns", "5 minutes"). */
const GO_DURATION = /^[+-]?(?:0|(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+)$/;
const STRFMT_DURATION =
  /^\s*\d+\s*(?:ns|us|µs|ms|s|m|h|d|w|nanoseconds?|microseconds?|milliseconds?|seconds?|minutes?|hours?|days?|weeks?)\s*$/;

function isBase64(value: string): boolean {
  const compact = value.replace(/[\r\n]/g, '');
  return compact.length % 4 === 0 && BASE64.test(compact);
}

const COMMON_FORMATS: Record<string, FormatDefinition<number> | FormatDefinition<string>> = {
  int32: { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX },
  int64: { type: 'number', validate: (n: number) => Number.isInteger(n) },
  double: { type: 'number', validate: () => true },
  float: { type: 'number', validate: () => true },
  byte: { type: 'string', validate: isBase64 },
};

/**
 * Formats of the built-in API types, checked the way their Go types unmarshal them. An object (not only an
 * addFormat call) because the precompiled validators (scripts/build-validators.ts) require it by name.
 */
export const BUILTIN_FORMATS: Record<string, FormatDefinition<number> | FormatDefinition<string>> = {
  ...COMMON_FORMATS,
  'date-time': { type: 'string', validate: RFC3339 },
  'int-or-string': { type: 'string', validate: () => true },
  quantity: { type: 'string', validate: QUANTITY },
};

function addFormats(ajv: Ajv, formats: Record<string, FormatDefinition<number> | FormatDefinition<string>>): void {
  for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format);
}

export function addBuiltinFormats(ajv: Ajv): void {
  addFormats(ajv, BUILTIN_FORMATS);
}

/**
 * Formats a CRD schema may name. The API server checks a fixed list and ignores unknown formats; this checks
 * the ones whose Go semantics are matched exactly here, and ignores the others (ajv runs with strictSchema
 * off and no logger, so an unknown format is no error).
 */
export function addCrdFormats(ajv: Ajv): void {
  addFormats(ajv, {
    ...COMMON_FORMATS,
    'date-time': { type: 'string', validate: STRFMT_DATE_TIME },
    datetime: { type: 'string', validate: STRFMT_DATE_TIME },
    date: { type: 'string', validate: DATE },
    duration: { type: 'string', validate: (s: string) => GO_DURATION.test(s) || STRFMT_DURATION.test(s) },
  });
}
