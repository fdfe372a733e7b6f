/** API-server rules for Service, ConfigMap and Secret, Ingress, HorizontalPodAutoscaler and PodDisruptionBudget. */
import { DNS1123_LABEL, DNS1123_SUBDOMAIN, errorsOf, type Doc } from './api-server-rules';

function service(spec: Doc): Doc {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec };
}

describe('Service', () => {
  it('ports are in range', async () => {
    expect(await errorsOf(service({ ports: [{ port: 443, targetPort: 8443 }] }))).toEqual([]);
    expect(await errorsOf(service({ ports: [{ port: 0 }] }))).toEqual([
      { path: 'spec.ports[0].port', message: 'invalid value 0: must be between 1 and 65535, inclusive' },
    ]);
  });

  it('several ports are each named, with unique DNS-label names', async () => {
    const named = [
      { name: 'http', port: 80 },
      { name: 'https', port: 443 },
    ];
    expect(await errorsOf(service({ ports: named }))).toEqual([]);
    expect(await errorsOf(service({ ports: [{ name: 'http', port: 80 }, { port: 443 }] }))).toEqual([
      { path: 'spec.ports[1].name', message: 'required value: a Service with several ports must name each of them' },
    ]);
    const clash = [
      { name: 'http', port: 80 },
      { name: 'http', port: 8080 },
    ];
    expect(await errorsOf(service({ ports: clash }))).toEqual([
      { path: 'spec.ports[1].name', message: 'duplicate value "http": port names must be unique' },
    ]);
    expect(await errorsOf(service({ ports: [{ name: 'HTTP', port: 80 }] }))).toEqual([
      { path: 'spec.ports[0].name', message: `invalid value "HTTP": ${DNS1123_LABEL}` },
    ]);
  });

  it('the same port and protocol appear once', async () => {
    const udpAndTcp = [
      { name: 'dns', port: 53, protocol: 'UDP' },
      { name: 'dns-tcp', port: 53, protocol: 'TCP' },
    ];
    expect(await errorsOf(service({ ports: udpAndTcp }))).toEqual([]);
    const twice = [
      { name: 'a', port: 80 },
      { name: 'b', port: 80 },
    ];
    expect(await errorsOf(service({ ports: twice }))).toEqual([
      { path: 'spec.ports[1]', message: 'duplicate value "80/TCP": port and protocol pairs must be unique' },
    ]);
  });

  it('targetPort is a port number or an IANA service name', async () => {
    expect(await errorsOf(service({ ports: [{ port: 80, targetPort: 'http' }] }))).toEqual([]);
    expect(await errorsOf(service({ ports: [{ port: 80, targetPort: 'HTTP_PORT' }] }))).toEqual([
      {
        path: 'spec.ports[0].targetPort',
        message: 'invalid value "HTTP_PORT": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      },
      {
        path: 'spec.ports[0].targetPort',
        message: 'invalid value "HTTP_PORT": must contain at least one letter (a-z)',
      },
    ]);
    expect(await errorsOf(service({ ports: [{ port: 80, targetPort: 99999 }] }))).toEqual([
      { path: 'spec.ports[0].targetPort', message: 'invalid value 99999: must be between 1 and 65535, inclusive' },
    ]);
  });

  it('ports are required unless headless or ExternalName; nodePort is not for ClusterIP', async () => {
    expect(await errorsOf(service({ clusterIP: 'None' }))).toEqual([]);
    expect(await errorsOf(service({ type: 'ExternalName', externalName: 'db.example.com' }))).toEqual([]);
    expect(await errorsOf(service({ selector: { app: 'web' } }))).toEqual([
      { path: 'spec.ports', message: 'required value: ' },
    ]);
    expect(await errorsOf(service({ type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }))).toEqual([]);
    expect(await errorsOf(service({ ports: [{ port: 80, nodePort: 30080 }] }))).toEqual([
      { path: 'spec.ports[0].nodePort', message: "forbidden: may not be used when `type` is 'ClusterIP'" },
    ]);
  });
});

describe('ConfigMap and Secret keys', () => {
  const KEY =
    "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
  const configMap = (fields: Doc): Doc => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, ...fields });

  it('ConfigMap data keys', async () => {
    expect(await errorsOf(configMap({ data: { 'app.properties': 'x', LOG_LEVEL: 'debug' } }))).toEqual([]);
    expect(await errorsOf(configMap({ data: { 'app/config': 'x' } }))).toEqual([
      { path: 'data["app/config"]', message: `invalid value "app/config": ${KEY}` },
    ]);
    expect(await errorsOf(configMap({ data: { '..data': 'x' } }))).toEqual([
      { path: 'data["..data"]', message: `invalid value "..data": must not start with '..'` },
    ]);
  });

  it('a key in both data and binaryData', async () => {
    expect(await errorsOf(configMap({ data: { a: 'x' }, binaryData: { a: 'eA==' } }))).toEqual([
      { path: 'data.a', message: 'invalid value "a": duplicate of key present in binaryData' },
    ]);
  });

  it('Secret data and stringData keys, and the keys of its type', async () => {
    const secret = (fields: Doc): Doc => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, ...fields });
    expect(await errorsOf(secret({ stringData: { 'db.password': 'x' } }))).toEqual([]);
    expect(await errorsOf(secret({ stringData: { 'db password': 'x' } }))).toEqual([
      { path: 'stringData["db password"]', message: `invalid value "db password": ${KEY}` },
    ]);
    expect(await errorsOf(secret({ type: 'kubernetes.io/tls', stringData: { 'tls.crt': 'x' } }))).toEqual([
      { path: 'data["tls.key"]', message: 'required value: a Secret of type kubernetes.io/tls must have this key' },
    ]);
  });
});

describe('Ingress', () => {
  const ingress = (rule: Doc, tls?: Doc[]): Doc => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'web' },
    spec: { rules: [rule], ...(tls ? { tls } : {}) },
  });
  const path = (p: string, pathType = 'Prefix'): Doc => ({
    path: p,
    pathType,
    backend: { service: { name: 'web', port: { number: 80 } } },
  });

  it('hosts are DNS subdomains or wildcards, not IP addresses', async () => {
    expect(await errorsOf(ingress({ host: '*.example.com', http: { paths: [path('/')] } }))).toEqual([]);
    expect(await errorsOf(ingress({ host: 'Example.com', http: { paths: [path('/')] } }))).toEqual([
      { path: 'spec.rules[0].host', message: `invalid value "Example.com": ${DNS1123_SUBDOMAIN}` },
    ]);
    const ip = await errorsOf(ingress({ host: '10.0.0.1', http: { paths: [path('/')] } }));
    expect(ip[0]).toEqual({
      path: 'spec.rules[0].host',
      message: 'invalid value "10.0.0.1": must be a DNS name, not an IP address',
    });
    expect(await errorsOf(ingress({ http: { paths: [path('/')] } }, [{ hosts: ['a_b.example.com'] }]))).toEqual([
      { path: 'spec.tls[0].hosts[0]', message: `invalid value "a_b.example.com": ${DNS1123_SUBDOMAIN}` },
    ]);
  });

  it('paths are absolute, without dot segments or encoded slashes for Exact and Prefix', async () => {
    expect(
      await errorsOf(ingress({ http: { paths: [path('/api/v1'), path('api', 'ImplementationSpecific')] } })),
    ).toEqual([{ path: 'spec.rules[0].http.paths[1].path', message: 'invalid value "api": must be an absolute path' }]);
    expect(await errorsOf(ingress({ http: { paths: [path('/a/../b', 'Exact')] } }))).toEqual([
      { path: 'spec.rules[0].http.paths[0].path', message: `invalid value "/a/../b": must not contain '/../'` },
    ]);
  });

  it('a Service backend names a Service and a valid port', async () => {
    const backend = { path: '/', pathType: 'Prefix', backend: { service: { name: '1web', port: { name: 'HTTP' } } } };
    expect((await errorsOf(ingress({ http: { paths: [backend] } }))).map((e) => e.path)).toEqual([
      'spec.rules[0].http.paths[0].backend.service.name',
      'spec.rules[0].http.paths[0].backend.service.port.name', // [-a-z0-9] only
      'spec.rules[0].http.paths[0].backend.service.port.name', // at least one letter a-z
    ]);
  });
});

describe('HorizontalPodAutoscaler', () => {
  const hpa = (spec: Doc): Doc => ({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, ...spec },
  });

  it('1 <= minReplicas <= maxReplicas', async () => {
    expect(await errorsOf(hpa({ minReplicas: 2, maxReplicas: 5 }))).toEqual([]);
    expect(await errorsOf(hpa({ minReplicas: 0, maxReplicas: 5 }))).toEqual([
      { path: 'spec.minReplicas', message: 'invalid value 0: must be greater than or equal to 1' },
    ]);
    expect(await errorsOf(hpa({ minReplicas: 6, maxReplicas: 5 }))).toEqual([
      { path: 'spec.maxReplicas', message: 'invalid value 5: must be greater than or equal to `minReplicas`' },
    ]);
    expect(await errorsOf(hpa({ maxReplicas: 0 }))).toEqual([
      { path: 'spec.maxReplicas', message: 'invalid value 0: must be greater than 0' },
    ]);
  });
});

describe('PodDisruptionBudget', () => {
  const pdb = (spec: Doc): Doc => ({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web' },
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
  });

  it('one of minAvailable and maxUnavailable, a count or a percent up to 100%', async () => {
    expect(await errorsOf(pdb({ minAvailable: '50%' }))).toEqual([]);
    expect(await errorsOf(pdb({ maxUnavailable: 1 }))).toEqual([]);
    expect((await errorsOf(pdb({ minAvailable: 1, maxUnavailable: 1 })))[0]).toEqual({
      path: 'spec',
      message: expect.stringContaining('minAvailable and maxUnavailable cannot be both set'),
    });
    expect(await errorsOf(pdb({ minAvailable: '150%' }))).toEqual([
      { path: 'spec.minAvailable', message: 'invalid value "150%": must not be greater than 100%' },
    ]);
    expect(await errorsOf(pdb({ maxUnavailable: 'half' }))).toEqual([
      {
        path: 'spec.maxUnavailable',
        message:
          "invalid value \"half\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      },
    ]);
    expect(await errorsOf(pdb({ minAvailable: -1 }))).toEqual([
      { path: 'spec.minAvailable', message: 'invalid value -1: must be greater than or equal to 0' },
    ]);
  });
});
