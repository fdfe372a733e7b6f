import { isIP } from 'node:net';
import type { PathSegment } from '../field-path';
import { isRecord, ownField, recordField, stringField, type JsonRecord } from '../json';
import {
  isDNS1035Label,
  isDNS1123Subdomain,
  isValidPortName,
  isValidPortNum,
  isWildcardDNS1123Subdomain,
} from './k8s-names';
import { invalid, isInt32, type RuleContext } from './rule-context';

const INVALID_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_SUFFIXES = ['/..', '/.'];

/** A rule or TLS host: a DNS subdomain, a wildcard one (`*.example.com`), never an IP address. */
function checkHost(host: unknown, at: readonly PathSegment[], ctx: RuleContext): void {
  if (typeof host !== 'string' || host === '') return;
  if (isIP(host) !== 0) invalid(ctx, at, host, ['must be a DNS name, not an IP address']);
  const problems = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
  if (problems.length > 0) invalid(ctx, at, host, problems);
}

/** networking validateIngressHTTPIngressPath: absolute, and for Exact and Prefix free of dot segments and encoded '/'. */
function pathProblems(path: string, pathType: unknown): string[] {
  if (pathType === 'ImplementationSpecific')
    return path === '' || path.startsWith('/') ? [] : ['must be an absolute path'];
  if (pathType !== 'Exact' && pathType !== 'Prefix') return [];
  const problems = path.startsWith('/') ? [] : ['must be an absolute path'];
  for (const sequence of INVALID_SEQUENCES)
    if (path.includes(sequence)) problems.push(`must not contain '${sequence}'`);
  for (const suffix of INVALID_SUFFIXES) if (path.endsWith(suffix)) problems.push(`cannot end with '${suffix}'`);
  return problems;
}

/** networking validateIngressBackend, for a Service backend: the Service's name, and its port by number or name. */
function checkBackend(backend: unknown, at: readonly PathSegment[], ctx: RuleContext): void {
  const service = isRecord(backend) ? recordField(backend, 'service') : undefined;
  if (!service) return;
  const name = stringField(service, 'name');
  if (name) {
    const problems = isDNS1035Label(name);
    if (problems.length > 0) invalid(ctx, [...at, 'service', 'name'], name, problems);
  }
  const port = recordField(service, 'port');
  const number = port && ownField(port, 'number');
  const portName = port && stringField(port, 'name');
  if (isInt32(number)) {
    const problems = isValidPortNum(number);
    if (problems.length > 0) invalid(ctx, [...at, 'service', 'port', 'number'], number, problems);
  }
  if (portName) {
    const problems = isValidPortName(portName);
    if (problems.length > 0) invalid(ctx, [...at, 'service', 'port', 'name'], portName, problems);
  }
}

/** networking ValidateIngressSpec (networking.k8s.io/v1): rule and TLS hosts, HTTP paths, Service backends. */
export function checkIngress(object: JsonRecord, ctx: RuleContext): void {
  const spec = recordField(object, 'spec');
  if (!spec) return;
  checkBackend(ownField(spec, 'defaultBackend'), ['spec', 'defaultBackend'], ctx);
  const tls = ownField(spec, 'tls');
  if (Array.isArray(tls)) {
    tls.forEach((entry, i) => {
      const hosts = isRecord(entry) ? ownField(entry, 'hosts') : undefined;
      if (Array.isArray(hosts)) hosts.forEach((host, j) => checkHost(host, ['spec', 'tls', i, 'hosts', j], ctx));
    });
  }
  const rules = ownField(spec, 'rules');
  if (!Array.isArray(rules)) return;
  rules.forEach((rule, i) => {
    if (!isRecord(rule)) return;
    checkHost(ownField(rule, 'host'), ['spec', 'rules', i, 'host'], ctx);
    const http = recordField(rule, 'http');
    const paths = http ? ownField(http, 'paths') : undefined;
    if (!Array.isArray(paths)) return;
    paths.forEach((entry, j) => {
      if (!isRecord(entry)) return;
      const at = ['spec', 'rules', i, 'http', 'paths', j];
      const path = ownField(entry, 'path');
      if (typeof path === 'string') {
        const problems = pathProblems(path, ownField(entry, 'pathType'));
        if (problems.length > 0) invalid(ctx, [...at, 'path'], path, problems);
      }
      checkBackend(ownField(entry, 'backend'), [...at, 'backend'], ctx);
    });
  });
}
