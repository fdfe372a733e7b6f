import net from 'node:net';
import os from 'node:os';

/**
 * Which IP addresses an outbound call to a tenant-chosen URL may reach (docs/security.md SS-3, SS-4). Node's own
 * `BlockList` does the matching on parsed addresses (no string tricks), and the WHATWG URL parser has already turned
 * `2130706433`, `0x7f000001`, `017700000001` and `127.1` into `127.0.0.1` before we see a host.
 */
const BLOCKED: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  // IPv6 forms that embed an IPv4 address: NAT64, 6to4, Teredo (mapped addresses: see MAPPED below).
  ['64:ff9b::', 96, 'ipv6'],
  ['2002::', 16, 'ipv6'],
  ['2001::', 32, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

function blockList(): net.BlockList {
  const list = new net.BlockList();
  for (const [address, prefix, family] of BLOCKED) list.addSubnet(address, prefix, family);
  // This host's own addresses (a public IP of the worker would otherwise reach its own services).
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) {
      list.addAddress(entry.address.split('%')[0]!, entry.family === 'IPv6' ? 'ipv6' : 'ipv4');
    }
  }
  return list;
}

let cached: net.BlockList | undefined;

/**
 * `::ffff:0:0/96` and `::/96` in their own list, consulted for IPv6 input only: BlockList matches IPv4 input against an IPv6
 * rule by its mapped form, so this rule in the main list would block every IPv4 address.
 */
const MAPPED = new net.BlockList();
MAPPED.addSubnet('::ffff:0:0', 96, 'ipv6');
// IPv4-compatible addresses (deprecated, RFC 4291): `[::127.0.0.1]` is `::7f00:1`.
MAPPED.addSubnet('::', 96, 'ipv6');

/** True when `address` (a literal IPv4 or IPv6 address) is private, loopback, link-local, metadata or reserved. */
export function isBlockedAddress(address: string): boolean {
  const family = net.isIP(address);
  // Not an address at all: refuse rather than guess.
  if (family === 0) return true;
  cached ??= blockList();
  if (family === 6 && MAPPED.check(address, 'ipv6')) return true;
  return cached.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** The literal address inside a URL host (`[::1]` -> `::1`), or null for a name that needs resolving. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return net.isIP(bare) === 0 ? null : bare;
}
