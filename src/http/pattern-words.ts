import { ownValue } from '../parse/own-property';

/**
 * Request schemas constrain strings with regular expressions; a caller should not have to read one. These are the
 * patterns our schemas use, said in words. A pattern without words here falls back to its field's description.
 */
const FIXED: Readonly<Record<string, string>> = {
  '^[0-9]{6}$': 'exactly 6 digits',
  '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$': 'a slug or an id (letters, digits and hyphens, at most 63)',
  '^([01][0-9]|2[0-3]):[0-5][0-9]$': 'a time of day as HH:MM, from 00:00 to 23:59',
  '^1\\.[0-9]{2}$': 'a Kubernetes minor version such as 1.29',
  '^[a-z0-9_.*]+$': 'lowercase letters, digits, underscores, dots and *',
  '^[A-Za-z0-9_-]+$': 'letters, digits, underscores and hyphens',
  '^[\\x21-\\x7e]+$': 'printable ASCII characters without spaces',
  '^[0-9a-f.-]+$': 'lowercase hexadecimal digits, dots and hyphens',
  '^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$':
    'letters, digits, underscores and hyphens, starting with a letter or digit, at most 128 characters',
  '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$': 'an image tag: letters, digits, _ . and -, not starting with . or -',
  '^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$': 'letters, digits, _ . and -, not starting with . or -, at most 128 characters',
  '^[a-zA-Z0-9_][a-zA-Z0-9._+-]{0,127}$': 'a version: letters, digits, _ . + and -, not starting with . + or -',
  '^[A-Za-z][A-Za-z0-9]{0,62}$': 'a Kubernetes kind: letters and digits, starting with a letter',
  '^[A-Za-z_][A-Za-z0-9_.-]{0,252}$': 'a key: letters, digits, _ . and -, starting with a letter or _',
  '^[a-z0-9][a-z0-9._/:-]{0,254}$': 'a lowercase image reference (registry/path:port, without tag)',
  '^[a-z0-9]+(?:[._-][a-z0-9]+)*(?:/[a-z0-9]+(?:[._-][a-z0-9]+)*){0,4}$':
    'a lowercase repository path of up to 5 segments separated by /',
  '^(?:[a-z0-9.-]{1,253}/)?[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?$':
    'a Kubernetes label key: an optional DNS prefix and /, then a name of at most 63 characters',
  '^[A-Za-z0-9][A-Za-z0-9.:-]{0,253}(?:/[a-z0-9._-]{1,128}){0,10}$': 'a registry host, optionally with a path',
  '^[a-z0-9_]+(\\.[A-Za-z0-9_*-]+){0,9}$': 'a dotted action such as projects.web.releases.create',
  '^[A-Za-z0-9_{}*-]+(\\.[A-Za-z0-9_{}*-]+)*$': 'a dotted action pattern such as projects.*.releases.*',
  '^[A-Za-z0-9](?:[A-Za-z0-9._/-]{0,61}[A-Za-z0-9])?$':
    'a label key: letters, digits, _ . / and -, starting and ending with a letter or digit, at most 63 characters',
  '^(?:[A-Za-z0-9](?:[A-Za-z0-9._-]{0,61}[A-Za-z0-9])?)?$':
    'a label value: empty, or letters, digits, _ . and -, starting and ending with a letter or digit, at most 63',
  '^https?://': 'an http:// or https:// URL',
  '^[A-Za-z0-9_-]+(?:\\.[A-Za-z0-9_-]+)*$': 'a dot path of JSON field names such as status.ready',
};

/** `^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$`: a DNS label of at most 63 characters, and its shorter siblings. */
const LABEL = /^\^\[a-z0-9\]\(\?:\[a-z0-9(\.?)-\]\{0,(\d+)\}\[a-z0-9\]\)\?\$$/;
const DIGITS = /^\^\[0-9\]\{1,(\d+)\}\$$/;

export function patternInWords(pattern: string): string | null {
  const fixed = ownValue(FIXED, pattern);
  if (fixed) return fixed;
  const label = LABEL.exec(pattern);
  if (label) {
    const allowed = label[1] ? 'lowercase letters, digits, dots and hyphens' : 'lowercase letters, digits and hyphens';
    return `${allowed}, starting and ending with a letter or digit, at most ${Number(label[2]) + 2} characters`;
  }
  const digits = DIGITS.exec(pattern);
  if (digits) return `1 to ${digits[1]} digits`;
  return null;
}
