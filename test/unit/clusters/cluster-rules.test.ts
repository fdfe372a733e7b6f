import { concreteAction } from '../../../api/auth-chain';
import { followableVersion } from '../../../src/clusters/agent-binding-service';
import { loadClustersConfig } from '../../../src/config/clusters';
import { actionRoles } from '../../../src/runtime/modules';
import { matchesActionPattern } from '../../../src/iam/action-glob';
import { minimumRole } from '../../../src/iam/role-authorizer';

/** The whole action vocabulary: the kernel's actions and every module's. */
const ACTION_ROLES = actionRoles();

describe('the Kubernetes version a bound environment follows', () => {
  it.each([
    ['v1.31.4', '1.31'],
    ['1.30', '1.30'],
    ['v1.29.3-eks-1a2b3c', '1.29'],
    ['v1.28.2+k3s1', '1.28'],
    ['v1.99.0', null],
    ['', null],
    ['latest', null],
    ['v1.310', null],
  ])('%s -> %s', (reported, expected) => {
    expect(followableVersion(reported)).toBe(expected);
  });
});

describe('the command action', () => {
  const template = 'clusters.{clusterId}.commands.{command}';
  const params = { clusterId: 'c1' };

  it('takes the command from the body, so patterns and roles see the concrete command', () => {
    const action = concreteAction(template, params, { command: 'sync' });
    expect(action).toBe('clusters.c1.commands.sync');
    expect(matchesActionPattern('clusters.*.commands.sync', action)).toBe(true);
    expect(
      matchesActionPattern('clusters.*.commands.sync', concreteAction(template, params, { command: 'restart' })),
    ).toBe(false);
    expect(minimumRole(ACTION_ROLES, action)).toBe('member');
  });

  it('never lets a body value change the shape of the action or override a path parameter', () => {
    expect(concreteAction(template, params, { command: 'sync.and.more' })).toBe('clusters.c1.commands.*');
    expect(concreteAction(template, params, { command: 42 })).toBe('clusters.c1.commands.*');
    expect(concreteAction(template, params, null)).toBe('clusters.c1.commands.*');
    expect(concreteAction(template, params, { clusterId: 'other', command: 'sync' })).toBe('clusters.c1.commands.sync');
  });

  it('keeps reads below the per-command floor', () => {
    expect(minimumRole(ACTION_ROLES, 'clusters.c1.commands.read')).toBe('viewer');
    expect(minimumRole(ACTION_ROLES, 'clusters.c1.credential.rotate')).toBe('admin');
  });
});

describe('cluster settings', () => {
  it('default to the spec window and plaintext on loopback', () => {
    const config = loadClustersConfig({});
    expect(config).toMatchObject({ grpcHost: '127.0.0.1', grpcPort: 8091, disconnectAfterMs: 300_000 });
    expect(config.grpcTlsCertPath).toBeUndefined();
  });

  it('need the TLS certificate and key together', () => {
    expect(() => loadClustersConfig({ AGENT_GRPC_TLS_CERT: '/c.pem' })).toThrow(
      'AGENT_GRPC_TLS_CERT and AGENT_GRPC_TLS_KEY must be set together',
    );
    expect(loadClustersConfig({ AGENT_DISCONNECT_AFTER: '3s' }).disconnectAfterMs).toBe(3000);
  });
});
