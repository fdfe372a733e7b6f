import dns from 'node:dns/promises';
import { isBlockedAddress, literalAddress } from './address-policy';

/** How far an outbound call to a tenant-chosen URL may go (NOTIFY_* settings, docs/notifications.md "SSRF"). */
export interface OutboundPolicy {
  /** NOTIFY_ALLOW_HTTP: plain http:// targets besides https://. */
  allowHttp: boolean;
  /** NOTIFY_ALLOWED_PORTS: the ports a target may use (the scheme's default port counts as 80 or 443). */
  allowedPorts: readonly number[];
  /**
   * NOTIFY_ALLOW_PRIVATE_TARGETS: self-hosted deployments whose chat or paging servers live on the private network.
   * Off by default; with it on, private and loopback addresses pass (the scheme, port and userinfo rules still hold).
   */
  allowPrivate: boolean;
  /** NOTIFY_SMTP_ALLOWED_PORTS: the ports an organization's own SMTP relay may use. */
  smtpPorts: readonly number[];
  /**
   * NOTIFY_EGRESS_PROXY: an HTTP CONNECT proxy every outbound send goes through (`http://[user:pass@]host:port`).
   * The target is still checked here first and the proxy is asked for the checked address, never the name.
   */
  egressProxy?: string;
}

/** Why a target was refused; the message is safe to show the tenant (it names no resolved address). */
export class TargetRefused extends Error {}

export interface CheckedTarget {
  url: URL;
  /** The address the connection must use: every resolved address was checked, this one is pinned. */
  address: string;
  family: 4 | 6;
}

/** Scheme, userinfo and port rules: no I/O, so creation checks and send-time checks share it (SS-1). */
export function checkUrlShape(raw: string, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused('target URL is not a valid URL');
  }
  const schemes = policy.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    throw new TargetRefused(`target URL scheme must be ${schemes.map((s) => s.slice(0, -1)).join(' or ')}`);
  }
  if (url.username !== '' || url.password !== '') throw new TargetRefused('target URL must not carry credentials');
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (!policy.allowedPorts.includes(port)) throw new TargetRefused(`target port ${port} is not allowed`);
  return url;
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * The full check (SS-1 to SS-4): shape, then every address the name resolves to. A name that does not resolve is
 * refused (never "skip the check"), and any one private address refuses the target (a wildcard or rebinding name
 * cannot slip one in among public ones). The caller connects to `address` only.
 */
export async function checkTarget(
  raw: string,
  policy: OutboundPolicy,
  resolve: Resolver = systemResolver,
): Promise<CheckedTarget> {
  const url = checkUrlShape(raw, policy);
  return { url, ...(await checkHost(url.hostname, policy, resolve)) };
}

/**
 * Every address a host name (already normalised by the WHATWG parser) resolves to, checked; the first one is where
 * the caller connects.
 */
async function checkHost(
  hostname: string,
  policy: OutboundPolicy,
  resolve: Resolver,
): Promise<{ address: string; family: 4 | 6 }> {
  const literal = literalAddress(hostname);
  let addresses: { address: string; family: number }[];
  if (literal !== null) {
    addresses = [{ address: literal, family: literal.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(hostname);
    } catch {
      throw new TargetRefused('target host does not resolve');
    }
    if (addresses.length === 0) throw new TargetRefused('target host does not resolve');
  }
  if (!policy.allowPrivate && addresses.some((a) => isBlockedAddress(a.address))) {
    throw new TargetRefused('target resolves to a private, loopback, link-local or reserved address');
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * A project's external Git remote: the same shape and address rules as every other target (ports from
 * NOTIFY_ALLOWED_PORTS, private addresses only with NOTIFY_ALLOW_PRIVATE_TARGETS), https unless GIT_REMOTE_ALLOW_HTTP,
 * and no query or fragment. Checked when saved and again before every push (a name may resolve elsewhere later).
 */
export async function checkGitRemote(
  raw: string,
  policy: OutboundPolicy,
  allowHttp: boolean,
  resolve: Resolver = systemResolver,
): Promise<CheckedTarget> {
  const target = await checkTarget(raw, { ...policy, allowHttp }, resolve);
  if (target.url.search || target.url.hash) throw new TargetRefused('target URL must not have a query or fragment');
  return target;
}

/**
 * An organization's SMTP relay (host and port, no URL): the port allowlist of relays, then the same address rules as
 * every other target. The host goes through the WHATWG parser first, so numeric forms (`127.1`) are normalised too.
 */
export async function checkSmtpTarget(
  host: string,
  port: number,
  policy: OutboundPolicy,
  resolve: Resolver = systemResolver,
): Promise<{ host: string; address: string; family: 4 | 6 }> {
  if (!policy.smtpPorts.includes(port)) throw new TargetRefused(`SMTP port ${port} is not allowed`);
  let hostname: string;
  try {
    hostname = new URL(`http://${host}/`).hostname;
  } catch {
    throw new TargetRefused('SMTP host is not a valid host name');
  }
  return { host: hostname, ...(await checkHost(hostname, policy, resolve)) };
}
