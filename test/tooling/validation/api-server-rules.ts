/** Helpers of the api-server-rules tests: small manifests and their error results. */
import { stringify } from 'yaml';
import type { ValidationResult } from '../../../src/validation';
import { engine } from './corpus';

export type Doc = Record<string, unknown>;

/** The error results of one manifest (objects are written as YAML first, as users send them). */
export async function errorsOf(
  docs: Doc | Doc[],
  version = '1.29',
): Promise<Pick<ValidationResult, 'path' | 'message'>[]> {
  const text = (Array.isArray(docs) ? docs : [docs]).map((d) => stringify(d)).join('---\n');
  const response = (await engine()).validate(text, version, { bestPractices: false });
  return response.results.filter((r) => r.severity === 'error').map(({ path, message }) => ({ path, message }));
}

export function pod(spec: Doc, metadata: Doc = { name: 'web' }): Doc {
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}

export function container(fields: Doc = {}): Doc {
  return { name: 'web', image: 'nginx:1.27', ...fields };
}

export function deployment(fields: { spec?: Doc; template?: Doc; podSpec?: Doc; labels?: Doc } = {}): Doc {
  const labels = fields.labels ?? { app: 'web' };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels },
        spec: { containers: [container()], ...fields.podSpec },
        ...fields.template,
      },
      ...fields.spec,
    },
  };
}

export const DNS1123_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
export const DNS1123_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
export const DNS1035_LABEL =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
