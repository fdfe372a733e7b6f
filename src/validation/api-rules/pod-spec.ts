import type { PathSegment } from '../field-path';
import { isRecord, ownField, type JsonRecord } from '../json';
import { isDNS1123Label, isEnvVarName, isRelaxedEnvVarName, isValidPortName, isValidPortNum } from './k8s-names';
import { quantityValue } from './quantity';
import { duplicate, invalid, required, violation, isInt32, type RuleContext } from './rule-context';

/** RelaxedEnvironmentVariableValidation: alpha (off) in 1.30 and 1.31, beta and on by default from 1.32. */
const RELAXED_ENV_NAMES_FROM = 32;

const POD_RESTART_POLICIES = new Set(['Always', 'OnFailure', 'Never']);

const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

function checkPorts(ports: unknown[], at: readonly PathSegment[], ctx: RuleContext): void {
  let names: Set<string> | undefined;
  for (let j = 0; j < ports.length; j++) {
    const port: unknown = ports[j];
    if (!isRecord(port)) continue;
    const containerPort = ownField(port, 'containerPort');
    if (isInt32(containerPort)) {
      const problems = isValidPortNum(containerPort);
      if (problems.length > 0) invalid(ctx, [...at, j, 'containerPort'], containerPort, problems);
    }
    const hostPort = ownField(port, 'hostPort');
    if (isInt32(hostPort) && hostPort !== 0) {
      const problems = isValidPortNum(hostPort);
      if (problems.length > 0) invalid(ctx, [...at, j, 'hostPort'], hostPort, problems);
    }
    const name = ownField(port, 'name');
    if (typeof name !== 'string' || name === '') continue;
    const problems = isValidPortName(name);
    if (problems.length > 0) invalid(ctx, [...at, j, 'name'], name, problems);
    names ??= new Set();
    if (names.has(name)) duplicate(ctx, [...at, j, 'name'], name, 'port names must be unique within a container');
    names.add(name);
  }
}

function checkEnv(env: unknown[], at: readonly PathSegment[], ctx: RuleContext): void {
  const rule = ctx.minor >= RELAXED_ENV_NAMES_FROM ? isRelaxedEnvVarName : isEnvVarName;
  for (let k = 0; k < env.length; k++) {
    const variable: unknown = env[k];
    if (!isRecord(variable)) continue;
    const name = ownField(variable, 'name');
    if (name === '') required(ctx, [...at, k, 'name'], 'an environment variable needs a name');
    if (typeof name !== 'string' || name === '') continue;
    const problems = rule(name);
    if (problems.length > 0) invalid(ctx, [...at, k, 'name'], name, problems);
  }
}

/** Values of one of requests/limits that parse (the schema's quantity format reports the others); negative ones are reported. */
function quantities(amounts: unknown, at: readonly PathSegment[], ctx: RuleContext): Map<string, number> | undefined {
  if (!isRecord(amounts)) return undefined;
  let values: Map<string, number> | undefined;
  for (const resource in amounts) {
    if (!Object.prototype.hasOwnProperty.call(amounts, resource)) continue;
    const raw = amounts[resource];
    const value = quantityValue(raw);
    if (value === undefined) continue;
    if (value < 0) invalid(ctx, [...at, resource], raw, ['must be greater than or equal to 0']);
    values ??= new Map();
    values.set(resource, value);
  }
  return values;
}

/** ValidateResourceRequirements: quantities parse, are not negative, and no request exceeds its limit. */
function checkResources(resources: JsonRecord, at: readonly PathSegment[], ctx: RuleContext): void {
  const limits = quantities(ownField(resources, 'limits'), [...at, 'limits'], ctx);
  const requests = quantities(ownField(resources, 'requests'), [...at, 'requests'], ctx);
  if (!limits || !requests) return;
  const rawLimits = ownField(resources, 'limits') as JsonRecord;
  const rawRequests = ownField(resources, 'requests') as JsonRecord;
  for (const [resource, request] of requests) {
    const limit = limits.get(resource);
    if (limit !== undefined && request > limit) {
      const shown = String(rawLimits[resource]);
      invalid(ctx, [...at, 'requests', resource], rawRequests[resource], [
        `must be less than or equal to ${resource} limit of ${shown}`,
      ]);
    }
  }
}

/**
 * The containers of a pod spec (core ValidatePodSpec): names are DNS labels unique across all container lists, ports
 * are in range with IANA service names unique per container, environment variable names follow the release's rule,
 * resource quantities parse and requests stay within limits.
 */
export function checkPodSpec(podSpec: JsonRecord, at: readonly PathSegment[], ctx: RuleContext): void {
  let names: Set<string> | undefined;
  for (const list of CONTAINER_LISTS) {
    const containers = ownField(podSpec, list);
    if (!Array.isArray(containers)) continue;
    for (let i = 0; i < containers.length; i++) {
      const container: unknown = containers[i];
      if (!isRecord(container)) continue;
      const name = ownField(container, 'name');
      if (typeof name === 'string' && name !== '') {
        const problems = isDNS1123Label(name);
        if (problems.length > 0) invalid(ctx, [...at, list, i, 'name'], name, problems);
        names ??= new Set();
        if (names.has(name)) {
          duplicate(ctx, [...at, list, i, 'name'], name, 'container names must be unique across all containers');
        }
        names.add(name);
      }
      // Paths are only built for the fields a container has.
      const ports = ownField(container, 'ports');
      if (Array.isArray(ports)) checkPorts(ports, [...at, list, i, 'ports'], ctx);
      const env = ownField(container, 'env');
      if (Array.isArray(env)) checkEnv(env, [...at, list, i, 'env'], ctx);
      const resources = ownField(container, 'resources');
      if (isRecord(resources)) checkResources(resources, [...at, list, i, 'resources'], ctx);
    }
  }
}

/** The restart policies a controller's pod template may use (defaulted to Always when absent). */
export function checkRestartPolicy(
  podSpec: JsonRecord,
  at: readonly PathSegment[],
  allowed: readonly string[],
  ctx: RuleContext,
): void {
  const policy = ownField(podSpec, 'restartPolicy') ?? 'Always';
  // A value outside the schema's enum is the schema check's error already.
  if (typeof policy !== 'string' || !POD_RESTART_POLICIES.has(policy) || allowed.includes(policy)) return;
  const supported = allowed.map((p) => `"${p}"`).join(', ');
  const defaulted = ownField(podSpec, 'restartPolicy') === undefined ? ' (the default when none is set)' : '';
  violation(ctx, [...at, 'restartPolicy'], `unsupported value "${policy}"${defaulted}: supported values: ${supported}`);
}
