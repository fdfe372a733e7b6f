import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isBlockedAddress } from '../../../src/net/address-policy';
import {
  checkSmtpTarget,
  checkTarget,
  TargetRefused,
  type OutboundPolicy,
  type Resolver,
} from '../../../src/net/outbound-policy';
import { createSafeSender } from '../../../src/net/safe-http';

/** docs/security.md rows 35 to 39: the outbound policy and the safe sender, with stub resolvers for DNS tricks. */
const strict: OutboundPolicy = { allowHttp: true, allowedPorts: [80, 443], allowPrivate: false, smtpPorts: [587] };
const resolveTo =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

async function refused(url: string, resolver: Resolver = resolveTo('93.184.216.34'), policy = strict) {
  await expect(checkTarget(url, policy, resolver)).rejects.toBeInstanceOf(TargetRefused);
}

describe('address classification (SS-3, SS-4)', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fc00::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
    '2001:0:4136:e378::1',
    'not-an-ip',
  ])('%s is blocked', (address) => expect(isBlockedAddress(address)).toBe(true));

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('%s is public', (address) =>
    expect(isBlockedAddress(address)).toBe(false),
  );
});

describe('checkTarget', () => {
  it('row 35: loopback, metadata and names resolving to them are refused', async () => {
    await refused('http://127.0.0.1/');
    await refused('http://[::1]/');
    await refused('http://169.254.169.254/latest/meta-data');
    await refused('http://localhost/', resolveTo('127.0.0.1'));
    await refused('http://metadata.google.internal/', resolveTo('169.254.169.254'));
  });

  it('row 36: every spelling of 127.0.0.1 and v6 forms embedding private v4 addresses are refused', async () => {
    for (const host of [
      '2130706433',
      '0x7f000001',
      '017700000001',
      '127.1',
      '0',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[64:ff9b::a9fe:a9fe]',
    ]) {
      await refused(`http://${host}/`);
    }
  });

  it('row 37: a name with any private address (wildcard DNS, AAAA-only private) is refused; no answer is refused', async () => {
    await refused('https://hooks.example.test/', resolveTo('10.0.0.7'));
    await refused('https://hooks.example.test/', resolveTo('93.184.216.34', '10.0.0.7'));
    await refused('https://hooks.example.test/', resolveTo('fd00::1'));
    await refused('https://hooks.example.test/', async () => []);
    await refused('https://hooks.example.test/', async () => {
      throw new Error('ENOTFOUND');
    });
  });

  it('row 39: other schemes, disallowed ports and userinfo are refused', async () => {
    for (const url of [
      'file:///etc/passwd',
      'gopher://example.com/',
      'ftp://example.com/',
      'https://example.com:6379/',
      'http://user:pw@example.com/',
    ]) {
      await refused(url);
    }
    await refused('http://example.com/', resolveTo('93.184.216.34'), { ...strict, allowHttp: false });
  });

  it('passes a public target and pins its first checked address', async () => {
    const target = await checkTarget('https://hooks.example.test/x', strict, resolveTo('93.184.216.34'));
    expect(target.address).toBe('93.184.216.34');
  });

  it('NOTIFY_ALLOW_PRIVATE_TARGETS lets private addresses through, but never other schemes or userinfo', async () => {
    const open = { ...strict, allowPrivate: true };
    await expect(checkTarget('http://127.0.0.1/', open)).resolves.toMatchObject({ address: '127.0.0.1' });
    await refused('http://user:pw@127.0.0.1/', resolveTo('127.0.0.1'), open);
    await refused('gopher://127.0.0.1/', resolveTo('127.0.0.1'), open);
  });
});

describe("checkSmtpTarget (an organization's relay)", () => {
  it('refuses ports off NOTIFY_SMTP_ALLOWED_PORTS, private addresses in any spelling and names resolving to them', async () => {
    const smtp = (host: string, port = 587, resolver = resolveTo('93.184.216.34')) =>
      checkSmtpTarget(host, port, strict, resolver);
    await expect(smtp('mail.example.com', 25)).rejects.toThrow('SMTP port 25 is not allowed');
    for (const host of ['127.0.0.1', '127.1', '2130706433', '0x7f000001', '[::1]', '169.254.169.254', '10.0.0.5']) {
      await expect(smtp(host)).rejects.toBeInstanceOf(TargetRefused);
    }
    await expect(smtp('relay.internal', 587, resolveTo('93.184.216.34', '192.168.0.10'))).rejects.toBeInstanceOf(
      TargetRefused,
    );
    await expect(smtp('mail.example.com')).resolves.toEqual({
      host: 'mail.example.com',
      address: '93.184.216.34',
      family: 4,
    });
    await expect(
      checkSmtpTarget('127.1', 587, { ...strict, allowPrivate: true }, resolveTo('93.184.216.34')),
    ).resolves.toMatchObject({ address: '127.0.0.1' });
  });
});

describe('safe sender', () => {
  let server: http.Server;
  let port = 0;
  const hits: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/redirect') res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      else if (req.url === '/big') res.writeHead(200).end('y'.repeat(100_000));
      else if (req.url === '/hang') return;
      else res.writeHead(204).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  const limits = { connectTimeoutMs: 500, totalTimeoutMs: 500, responseCapBytes: 1024 };
  const open = (): OutboundPolicy => ({ allowHttp: true, allowedPorts: [port], allowPrivate: true, smtpPorts: [] });
  const post = (path: string) => ({ url: `http://127.0.0.1:${port}${path}`, headers: {}, body: '{}' });

  it('row 38: a 302 to the metadata address is a failed attempt and is not followed', async () => {
    const result = await createSafeSender(open(), limits)(post('/redirect'));
    expect(result).toMatchObject({ status: 'failed', responseStatus: 302, error: 'redirect not followed' });
    expect(hits).not.toContain('/latest');
  });

  it('caps the response it reads and times out a hanging target', async () => {
    const big = await createSafeSender(open(), limits)(post('/big'));
    expect(big.status).toBe('success');
    expect(big.responseBody!.length).toBe(1024);
    const hang = await createSafeSender(open(), limits)(post('/hang'));
    expect(hang).toMatchObject({ status: 'timeout', error: 'request timed out' });
  });

  it('row 37 at connect time: a name that resolved publicly at creation but privately now is refused at send', async () => {
    const rebinding = resolveTo('127.0.0.1');
    const result = await createSafeSender(
      { ...open(), allowPrivate: false },
      limits,
      rebinding,
    )({
      url: `http://rebind.example.test:${port}/`,
      headers: {},
      body: '{}',
    });
    expect(result.status).toBe('refused');
  });

  it('connects to the pinned address, not a second resolution of the name', async () => {
    let lookups = 0;
    const resolver: Resolver = async () => {
      lookups += 1;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const result = await createSafeSender(
      open(),
      limits,
      resolver,
    )({
      url: `http://pinned.example.test:${port}/pinned`,
      headers: {},
      body: '{}',
    });
    expect(result.status).toBe('success');
    expect(lookups).toBe(1);
    expect(hits).toContain('/pinned');
  });
});
