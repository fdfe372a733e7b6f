import { isRecord, ownField, recordField, stringField, type JsonRecord } from '../json';
import { isDNS1123Label, isValidPortName, isValidPortNum } from './k8s-names';
import { duplicate, invalid, required, violation, isInt32, type RuleContext } from './rule-context';

/** A targetPort of 0 or '' is defaulted to the port, so only a set one is checked. */
function checkTargetPort(port: JsonRecord, i: number, ctx: RuleContext): void {
  const target = ownField(port, 'targetPort');
  const path = ['spec', 'ports', i, 'targetPort'];
  if (isInt32(target) && target !== 0) {
    const problems = isValidPortNum(target);
    if (problems.length > 0) invalid(ctx, path, target, problems);
  } else if (typeof target === 'string' && target !== '') {
    const problems = isValidPortName(target);
    if (problems.length > 0) invalid(ctx, path, target, problems);
  }
}

/**
 * core ValidateService, for its ports: in range, named (DNS labels, unique) when there are several, a valid target,
 * no nodePort on a ClusterIP Service, no port and protocol twice; ports required unless headless or ExternalName.
 */
export function checkService(object: JsonRecord, ctx: RuleContext): void {
  const spec = recordField(object, 'spec');
  if (!spec) return;
  const type = stringField(spec, 'type') ?? 'ClusterIP';
  const ports = ownField(spec, 'ports');
  const count = Array.isArray(ports) ? ports.length : 0;
  if (count === 0 && ports !== null) {
    if (type !== 'ExternalName' && stringField(spec, 'clusterIP') !== 'None') required(ctx, ['spec', 'ports'], '');
    return;
  }
  if (!Array.isArray(ports)) return;
  const names = new Set<string>();
  const pairs = new Set<string>();
  for (let i = 0; i < ports.length; i++) {
    const port: unknown = ports[i];
    if (!isRecord(port)) continue;
    const name = ownField(port, 'name');
    if (count > 1 && (name === undefined || name === '')) {
      required(ctx, ['spec', 'ports', i, 'name'], 'a Service with several ports must name each of them');
    } else if (typeof name === 'string' && name !== '') {
      const problems = isDNS1123Label(name);
      if (problems.length > 0) invalid(ctx, ['spec', 'ports', i, 'name'], name, problems);
      if (names.has(name)) duplicate(ctx, ['spec', 'ports', i, 'name'], name, 'port names must be unique');
      names.add(name);
    }
    const number = ownField(port, 'port');
    if (isInt32(number)) {
      const problems = isValidPortNum(number);
      if (problems.length > 0) invalid(ctx, ['spec', 'ports', i, 'port'], number, problems);
      const pair = `${number}/${stringField(port, 'protocol') ?? 'TCP'}`;
      if (pairs.has(pair)) duplicate(ctx, ['spec', 'ports', i], pair, 'port and protocol pairs must be unique');
      pairs.add(pair);
    }
    checkTargetPort(port, i, ctx);
    const nodePort = ownField(port, 'nodePort');
    if (isInt32(nodePort) && nodePort !== 0) {
      const problems = isValidPortNum(nodePort);
      if (problems.length > 0) invalid(ctx, ['spec', 'ports', i, 'nodePort'], nodePort, problems);
      if (type === 'ClusterIP') {
        violation(ctx, ['spec', 'ports', i, 'nodePort'], "forbidden: may not be used when `type` is 'ClusterIP'");
      }
    }
  }
}
