import { ownValue } from '../parse/own-property';

/**
 * A value each pattern of the request schemas accepts, for the examples of the API reference (api/openapi-examples.ts):
 * the reader sees a plausible value, and a test checks every generated example against its schema.
 */
const FIXED: Readonly<Record<string, string>> = {
  '^[0-9]{6}$': '123456',
  '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$': 'acme',
  '^([01][0-9]|2[0-3]):[0-5][0-9]$': '09:00',
  '^1\\.[0-9]{2}$': '1.29',
  '^[a-z0-9_.*]+$': 'release.*',
  '^[A-Za-z0-9_-]+$': 'web_1',
  '^[\\x21-\\x7e]+$': 'opaque-value',
  '^[0-9a-f.-]+$': '0a1b.2c3d',
  '^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$': 'web',
  '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$': '1.4.2',
  '^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$': '1.4.2',
  '^[a-zA-Z0-9_][a-zA-Z0-9._+-]{0,127}$': '1.4.2',
  '^[A-Za-z][A-Za-z0-9]{0,62}$': 'Deployment',
  '^[A-Za-z_][A-Za-z0-9_.-]{0,252}$': 'LOG_LEVEL',
  '^[a-z0-9][a-z0-9._/:-]{0,254}$': 'registry.example.com/shop/web',
  '^[a-z0-9]+(?:[._-][a-z0-9]+)*(?:/[a-z0-9]+(?:[._-][a-z0-9]+)*){0,4}$': 'charts/web',
  '^(?:[a-z0-9.-]{1,253}/)?[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?$': 'app.kubernetes.io/name',
  '^[A-Za-z0-9][A-Za-z0-9.:-]{0,253}(?:/[a-z0-9._-]{1,128}){0,10}$': 'registry.example.com/shop',
  '^[a-z0-9_]+(\\.[A-Za-z0-9_*-]+){0,9}$': 'projects.web.releases.create',
  '^[A-Za-z0-9_{}*-]+(\\.[A-Za-z0-9_{}*-]+)*$': 'projects.*.releases.*',
  '^[a-z0-9_]+(\\.[a-z0-9_*]+)*$': 'release.deploy',
  '^[a-z0-9]+(?:(?:\\.|_|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:\\.|_|__|-+)[a-z0-9]+)*)*$': 'charts/web',
  '^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^\\[[0-9A-Fa-f:.]+\\]$':
    'smtp.example.com',
  '^(?:[a-z0-9-]|\\{(?:project|tenant|environment)\\})+$': '{tenant}-{environment}',
  '^https://[A-Za-z0-9.-]+(?::[0-9]{1,5})?(?:/[A-Za-z0-9._~/-]*)?$': 'https://prod.k8s.example.com:6443',
  '^[A-Za-z]+=[A-Za-z0-9,=-]+$': 'CreateNamespace=true',
};

/** Lowercase label patterns (`^[a-z0-9](?:[a-z0-9-]{0,N}[a-z0-9])?$`, with or without dots) and digit counts. */
const LABEL = /^\^\[a-z0-9\]\(\?:\[a-z0-9\.?-\]\{0,\d+\}\[a-z0-9\]\)\?\$$/;
const DIGITS = /^\^\[0-9\]\{1,\d+\}\$$/;

export function patternExample(pattern: string): string | null {
  return ownValue(FIXED, pattern) ?? (LABEL.test(pattern) ? 'web' : DIGITS.test(pattern) ? '20' : null);
}
