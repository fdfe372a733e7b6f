/**
 * The naming rule of the Argo CD Applications the platform generates, which the controller webhook parses back:
 *
 *     <project>.<tenant>.<environment>.<service>
 *
 * Project, tenant and environment slugs and service names are DNS labels (lowercase letters, digits and `-`), which
 * never contain a dot, so splitting at the three dots gives the parts back: the rule is reversible by construction.
 * The result is a valid Kubernetes object name (a DNS subdomain): service names are capped at 50 characters so the
 * longest name is 63 * 3 + 50 + 3 = 242 <= 253 characters.
 */
export interface ApplicationParts {
  project: string;
  tenant: string;
  environment: string;
  service: string;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const SERVICE = /^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$/;
const ORDER = ['project', 'tenant', 'environment', 'service'] as const;

export function isValidParts(parts: ApplicationParts): boolean {
  return ORDER.every((key) => (key === 'service' ? SERVICE : LABEL).test(parts[key]));
}

export function applicationName(parts: ApplicationParts): string {
  if (!isValidParts(parts)) throw new Error(`not an application name part: ${JSON.stringify(parts)}`);
  return ORDER.map((key) => parts[key]).join('.');
}

/** The parts of a generated Application name, or null when the name was not made by `applicationName`. */
export function parseApplicationName(name: string): ApplicationParts | null {
  const segments = name.split('.');
  if (segments.length !== ORDER.length) return null;
  const [project = '', tenant = '', environment = '', service = ''] = segments;
  const parts = { project, tenant, environment, service };
  return isValidParts(parts) ? parts : null;
}
