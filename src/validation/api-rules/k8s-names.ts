/**
 * The string rules of k8s.io/apimachinery/pkg/util/validation (validation.go), with the API server's own messages.
 * Each returns the messages of what is wrong, and the shared empty list when nothing is: valid input, the common
 * case, allocates nothing. Lengths are in UTF-16 code units where Go counts bytes; every pattern here is ASCII-only,
 * so a value that differs between the two counts fails its pattern anyway.
 */
export type Problems = readonly string[];

export const NONE: Problems = Object.freeze([]);

export const maxLenError = (length: number): string => `must be no more than ${length} characters`;
export const EMPTY_ERROR = 'must be non-empty';
export const inclusiveRangeError = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;

/** RegexError of validation.go: the rule, its examples and the regular expression the API server applies. */
function regexError(message: string, format: string, ...examples: string[]): string {
  const shown = examples.map((e) => `'${e}', `).join(' or ');
  return `${message} (e.g. ${shown}regex used for validation is '${format}')`;
}

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const ENV_VAR_NAME_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const CONFIG_MAP_KEY_FMT = '[-._a-zA-Z0-9]+';
const PERCENT_FMT = '[0-9]+%';
const WILDCARD_SUBDOMAIN_FMT = `\\*\\.${DNS1123_SUBDOMAIN_FMT}`;

const DNS1123_LABEL = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const QUALIFIED_NAME = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const ENV_VAR_NAME = new RegExp(`^${ENV_VAR_NAME_FMT}$`);
const CONFIG_MAP_KEY = new RegExp(`^${CONFIG_MAP_KEY_FMT}$`);
const PERCENT = new RegExp(`^${PERCENT_FMT}$`);
const WILDCARD_SUBDOMAIN = new RegExp(`^${WILDCARD_SUBDOMAIN_FMT}$`);
const PORT_NAME_CHARSET = /^[-a-z0-9]+$/;
const ONE_LETTER = /[a-z]/;
/** Printable ASCII other than '=' (IsRelaxedEnvVarName). */
const RELAXED_ENV_VAR_NAME = /^[\x20-\x3c\x3e-\x7e]+$/;

const DNS1123_LABEL_MSG = regexError(
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
  DNS1123_LABEL_FMT,
  'my-name',
  '123-abc',
);
const DNS1123_SUBDOMAIN_MSG = regexError(
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
  DNS1123_SUBDOMAIN_FMT,
  'example.com',
);
const DNS1035_LABEL_MSG = regexError(
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
  DNS1035_LABEL_FMT,
  'my-name',
  'abc-123',
);
const QUALIFIED_NAME_MSG = regexError(
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
  QUALIFIED_NAME_FMT,
  'MyName',
  'my.name',
  '123-abc',
);
const LABEL_VALUE_MSG = regexError(
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
  LABEL_VALUE_FMT,
  'MyValue',
  'my_value',
  '12345',
);
const ENV_VAR_NAME_MSG = regexError(
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
  ENV_VAR_NAME_FMT,
  'my.env-name',
  'MY_ENV.NAME',
  'MyEnvName1',
);
const RELAXED_ENV_VAR_NAME_MSG =
  "a valid environment variable name must consist only of printable ASCII characters other than '='";
const CONFIG_MAP_KEY_MSG = regexError(
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
  CONFIG_MAP_KEY_FMT,
  'key.name',
  'KEY_NAME',
  'key-name',
);
const PERCENT_MSG = regexError(
  "a valid percent string must be a numeric string followed by an ending '%'",
  PERCENT_FMT,
  '1%',
  '93%',
);
const WILDCARD_SUBDOMAIN_MSG = regexError(
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
  WILDCARD_SUBDOMAIN_FMT,
  '*.example.com',
);

/** Both checks of a length-capped pattern, allocating only on failure. */
function capped(value: string, max: number, pattern: RegExp, message: string): Problems {
  const long = value.length > max;
  const matches = pattern.test(value);
  if (!long && matches) return NONE;
  if (long && !matches) return [maxLenError(max), message];
  return [long ? maxLenError(max) : message];
}

export function isDNS1123Label(value: string): Problems {
  if (value.length <= 63 && DNS1123_LABEL.test(value)) return NONE;
  const errs: string[] = value.length > 63 ? [maxLenError(63)] : [];
  if (!DNS1123_LABEL.test(value))
    errs.push(DNS1123_SUBDOMAIN.test(value) ? 'must not contain dots' : DNS1123_LABEL_MSG);
  return errs;
}

export const isDNS1123Subdomain = (value: string): Problems =>
  capped(value, 253, DNS1123_SUBDOMAIN, DNS1123_SUBDOMAIN_MSG);

export const isDNS1035Label = (value: string): Problems => capped(value, 63, DNS1035_LABEL, DNS1035_LABEL_MSG);

export const isWildcardDNS1123Subdomain = (value: string): Problems =>
  capped(value, 253, WILDCARD_SUBDOMAIN, WILDCARD_SUBDOMAIN_MSG);

export const isValidLabelValue = (value: string): Problems => capped(value, 63, LABEL_VALUE, LABEL_VALUE_MSG);

/** A label or annotation key: a name part with an optional DNS-subdomain prefix and '/'. */
export function isQualifiedName(value: string): Problems {
  const slash = value.indexOf('/');
  if (slash === -1 && value.length <= 63 && QUALIFIED_NAME.test(value)) return NONE;
  if (slash !== -1 && value.indexOf('/', slash + 1) !== -1) {
    return [
      `a qualified name ${QUALIFIED_NAME_MSG} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  const errs: string[] = [];
  if (slash !== -1) {
    const prefix = value.slice(0, slash);
    if (prefix === '') errs.push(`prefix part ${EMPTY_ERROR}`);
    else for (const msg of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${msg}`);
  }
  const name = slash === -1 ? value : value.slice(slash + 1);
  if (name === '') errs.push(`name part ${EMPTY_ERROR}`);
  else if (name.length > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!QUALIFIED_NAME.test(name)) errs.push(`name part ${QUALIFIED_NAME_MSG}`);
  return errs;
}

/** IANA_SVC_NAME (RFC 6335): at most 15 characters of [-a-z0-9], at least one letter, no leading, trailing or double '-'. */
export function isValidPortName(value: string): Problems {
  const charset = PORT_NAME_CHARSET.test(value);
  const letter = ONE_LETTER.test(value);
  const doubleHyphen = value.includes('--');
  const edgeHyphen = value.startsWith('-') || value.endsWith('-');
  if (value.length <= 15 && charset && letter && !doubleHyphen && !edgeHyphen) return NONE;
  const errs: string[] = [];
  if (value.length > 15) errs.push(maxLenError(15));
  if (!charset) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!letter) errs.push('must contain at least one letter (a-z)');
  if (doubleHyphen) errs.push('must not contain consecutive hyphens');
  if (edgeHyphen) errs.push('must not begin or end with a hyphen');
  return errs;
}

export function isValidPortNum(port: number): Problems {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? NONE : [inclusiveRangeError(1, 65535)];
}

/** `.`, `..` and a leading `..` would escape the directory a key or variable is projected into. */
function chDirPrefix(value: string): string | undefined {
  if (value === '.') return "must not be '.'";
  if (value === '..') return "must not be '..'";
  return value.startsWith('..') ? "must not start with '..'" : undefined;
}

export function isEnvVarName(value: string): Problems {
  const matches = ENV_VAR_NAME.test(value);
  const prefix = chDirPrefix(value);
  if (matches && prefix === undefined) return NONE;
  const errs: string[] = matches ? [] : [ENV_VAR_NAME_MSG];
  if (prefix !== undefined) errs.push(prefix);
  return errs;
}

export function isRelaxedEnvVarName(value: string): Problems {
  if (value === '') return [`environment variable name ${EMPTY_ERROR}`];
  return RELAXED_ENV_VAR_NAME.test(value) ? NONE : [RELAXED_ENV_VAR_NAME_MSG];
}

export function isConfigMapKey(value: string): Problems {
  const long = value.length > 253;
  const matches = CONFIG_MAP_KEY.test(value);
  const prefix = chDirPrefix(value);
  if (!long && matches && prefix === undefined) return NONE;
  const errs: string[] = long ? [maxLenError(253)] : [];
  if (!matches) errs.push(CONFIG_MAP_KEY_MSG);
  if (prefix !== undefined) errs.push(prefix);
  return errs;
}

export const isValidPercent = (value: string): Problems => (PERCENT.test(value) ? NONE : [PERCENT_MSG]);

/** path.IsValidPathSegmentName (apimachinery/pkg/api/validation/path): names used as one URL path segment. */
export function isValidPathSegmentName(value: string): Problems {
  if (value === '.' || value === '..') return [`may not be '${value}'`];
  const errs: string[] = [];
  for (const illegal of ['/', '%']) if (value.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  return errs.length === 0 ? NONE : errs;
}
