import { isBlockedAddress } from '../../../src/net/address-policy';
import { checkGitRemote, TargetRefused, type OutboundPolicy, type Resolver } from '../../../src/net/outbound-policy';

/** docs/security.md A-64: Git remotes under the one outbound address policy, with stub resolvers for names. */
const policy: OutboundPolicy = { allowHttp: false, allowedPorts: [443, 8443], allowPrivate: false, smtpPorts: [587] };
const resolveTo =
  (address: string): Resolver =>
  async () => [{ address, family: address.includes(':') ? 6 : 4 }];
const publicHost = resolveTo('93.184.216.34');

describe('the outbound address policy for Git remotes', () => {
  it('accepts a public https remote on an allowed port', async () => {
    const target = await checkGitRemote('https://git.example.com/acme/app.git', policy, false, publicHost);
    expect(target.address).toBe('93.184.216.34');
  });

  it.each([
    'https://127.0.0.1/x.git',
    'https://[::1]/x.git',
    'https://[::127.0.0.1]/x.git',
    'https://[::ffff:169.254.169.254]/x.git',
    'https://169.254.169.254/latest/meta-data',
    'https://10.0.0.5/x.git',
    'https://[::1%25lo]/x.git',
    'https://git.example.com:22/x.git',
    'https://git.example.com:65536/x.git',
    'http://git.example.com/x.git',
    'https://git.example.com/x.git?a=b',
  ])('refuses %s', async (url) => {
    await expect(checkGitRemote(url, policy, false, publicHost)).rejects.toBeInstanceOf(TargetRefused);
  });

  it('refuses a name that resolves to a private address, with a message naming no address', async () => {
    const err = await checkGitRemote('https://internal.example.com/x.git', policy, false, resolveTo('10.1.2.3')).catch(
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(TargetRefused);
    expect((err as Error).message).not.toContain('10.1.2.3');
  });

  it('classifies IPv4-compatible IPv6 as blocked, public IPv4 and IPv6 as not', () => {
    expect(isBlockedAddress('::7f00:1')).toBe(true);
    expect(isBlockedAddress('::a9fe:a9fe')).toBe(true);
    expect(isBlockedAddress('93.184.216.34')).toBe(false);
    expect(isBlockedAddress('2606:2800:220:1:248:1893:25c8:1946')).toBe(false);
  });
});
