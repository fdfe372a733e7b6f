import type { PathSegment } from '../field-path';
import { isRecord, ownField, type JsonRecord } from '../json';
import { isDNS1123Label, isEnvVarName, isRelaxedEnvVarName, isValidPortName, isValidPortNum } from './k8s-names';
import { quantityValue } from './quantity';
import { duplicate, invalid, required, violation, isInt32, type RuleContext } from './rule-context';

/** RelaxedEnvironmentVariableValidation: alpha (off) in 1.30 and 1.31, beta and on by default from 1.32. */
const RELAXED_ENV_NAMES_FROM = 32;

const POD_RESTART_POLICIES = new Set(['Always', 'OnFailure', 'Never']);

const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** Where a container is: the pod spec's path, the list and the index; paths are built from it only for a failure. */
interface ContainerAt {
  spec: readonly PathSegment[];
  list: string;
  index: number;
}

function under(at: ContainerAt, ...rest: PathSegment[]): PathSegment[] {
  return [...at.spec, at.list, at.index, ...rest];
}

/** Whether `ports[j]`'s name was used by an earlier port (a scan, not a Set: containers have a handful of ports). */
function portNameTaken(ports: unknown[], j: number, name: string): boolean {
  for (let k = 0; k < j; k++) {
    const other: unknown = ports[k];
    if (isRecord(other) && ownField(other, 'name') === name) return true;
  }
  return false;
}

function checkPorts(ports: unknown[], at: ContainerAt, ctx: RuleContext): void {
  for (let j = 0; j < ports.length; j++) {
    const port: unknown = ports[j];
    if (!isRecord(port)) continue;
    const containerPort = ownField(port, 'containerPort');
    if (isInt32(containerPort)) {
      const problems = isValidPortNum(containerPort);
      if (problems.length > 0) invalid(ctx, under(at, 'ports', j, 'containerPort'), containerPort, problems);
    }
    const hostPort = ownField(port, 'hostPort');
    if (isInt32(hostPort) && hostPort !== 0) {
      const problems = isValidPortNum(hostPort);
      if (problems.length > 0) invalid(ctx, under(at, 'ports', j, 'hostPort'), hostPort, problems);
    }
    const name = ownField(port, 'name');
    if (typeof name !== 'string' || name === '') continue;
    const problems = isValidPortName(name);
    if (problems.length > 0) invalid(ctx, under(at, 'ports', j, 'name'), name, problems);
    if (portNameTaken(ports, j, name)) {
      duplicate(ctx, under(at, 'ports', j, 'name'), name, 'port names must be unique within a container');
    }
  }
}

function checkEnv(env: unknown[], at: ContainerAt, ctx: RuleContext): void {
  const rule = ctx.minor >= RELAXED_ENV_NAMES_FROM ? isRelaxedEnvVarName : isEnvVarName;
  for (let k = 0; k < env.length; k++) {
    const variable: unknown = env[k];
    if (!isRecord(variable)) continue;
    const name = ownField(variable, 'name');
    if (name === '') required(ctx, under(at, 'env', k, 'name'), 'an environment variable needs a name');
    if (typeof name !== 'string' || name === '') continue;
    const problems = rule(name);
    if (problems.length > 0) invalid(ctx, under(at, 'env', k, 'name'), name, problems);
  }
}

/** Negative quantities of requests or limits; unparsable ones are the schema's quantity-format errors. */
function checkNotNegative(amounts: JsonRecord, part: string, at: ContainerAt, ctx: RuleContext): void {
  for (const resource in amounts) {
    if (!Object.prototype.hasOwnProperty.call(amounts, resource)) continue;
    const value = quantityValue(amounts[resource]);
    if (value !== undefined && value < 0) {
      invalid(ctx, under(at, 'resources', part, resource), amounts[resource], ['must be greater than or equal to 0']);
    }
  }
}

/** ValidateResourceRequirements: quantities are not negative, and no request exceeds its limit. */
function checkResources(resources: JsonRecord, at: ContainerAt, ctx: RuleContext): void {
  const limits = ownField(resources, 'limits');
  const requests = ownField(resources, 'requests');
  if (isRecord(limits)) checkNotNegative(limits, 'limits', at, ctx);
  if (!isRecord(requests)) return;
  checkNotNegative(requests, 'requests', at, ctx);
  if (!isRecord(limits)) return;
  for (const resource in requests) {
    if (!Object.prototype.hasOwnProperty.call(requests, resource)) continue;
    const request = quantityValue(requests[resource]);
    const limit = quantityValue(ownField(limits, resource));
    if (request !== undefined && limit !== undefined && request > limit) {
      invalid(ctx, under(at, 'resources', 'requests', resource), requests[resource], [
        `must be less than or equal to ${resource} limit of ${String(limits[resource])}`,
      ]);
    }
  }
}

/** Whether a container before `list[i]` (in list order) has this name. */
function containerNameTaken(podSpec: JsonRecord, list: string, i: number, name: string): boolean {
  for (const earlierList of CONTAINER_LISTS) {
    const containers = ownField(podSpec, earlierList);
    const end = earlierList === list ? i : Array.isArray(containers) ? containers.length : 0;
    for (let k = 0; k < end && Array.isArray(containers); k++) {
      const other: unknown = containers[k];
      if (isRecord(other) && ownField(other, 'name') === name) return true;
    }
    if (earlierList === list) return false;
  }
  return false;
}

/**
 * The containers of a pod spec (core ValidatePodSpec): names are DNS labels unique across all container lists, ports
 * are in range with IANA service names unique per container, environment variable names follow the release's rule,
 * resource quantities are not negative and requests stay within limits. Nothing is allocated for a valid spec.
 */
export function checkPodSpec(podSpec: JsonRecord, spec: readonly PathSegment[], ctx: RuleContext): void {
  for (const list of CONTAINER_LISTS) {
    const containers = ownField(podSpec, list);
    if (!Array.isArray(containers)) continue;
    for (let i = 0; i < containers.length; i++) {
      const container: unknown = containers[i];
      if (!isRecord(container)) continue;
      const at: ContainerAt = { spec, list, index: i };
      const name = ownField(container, 'name');
      if (typeof name === 'string' && name !== '') {
        const problems = isDNS1123Label(name);
        if (problems.length > 0) invalid(ctx, under(at, 'name'), name, problems);
        if (containerNameTaken(podSpec, list, i, name)) {
          duplicate(ctx, under(at, 'name'), name, 'container names must be unique across all containers');
        }
      }
      const ports = ownField(container, 'ports');
      if (Array.isArray(ports)) checkPorts(ports, at, ctx);
      const env = ownField(container, 'env');
      if (Array.isArray(env)) checkEnv(env, at, ctx);
      const resources = ownField(container, 'resources');
      if (isRecord(resources)) checkResources(resources, at, ctx);
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
