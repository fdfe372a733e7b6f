import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** The typed prefixes of machine credentials: secret scanners and the bearer dispatcher both key on them. */
export const KEY_PREFIX = 'svc_';
export const TOKEN_PREFIX = 'svcacct_';
/** Cluster agents (src/clusters): a one-time join token, and the credential an agent receives for it. */
export const JOIN_TOKEN_PREFIX = 'cjt_';
export const AGENT_CREDENTIAL_PREFIX = 'agt_';
export type SecretPrefix =
  typeof KEY_PREFIX | typeof TOKEN_PREFIX | typeof JOIN_TOKEN_PREFIX | typeof AGENT_CREDENTIAL_PREFIX;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 40 base62 characters carry 238 random bits (docs/security.md KEY-1 asks for at least 128). */
const RANDOM_CHARS = 40;
const CHECKSUM_CHARS = 6;
const BODY = new RegExp(`^[0-9A-Za-z]{${RANDOM_CHARS + CHECKSUM_CHARS}}$`);

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    // Rejection sampling: bytes of 248 and above would bias the alphabet.
    for (const byte of randomBytes(length * 2)) if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
  }
  return out;
}

/** CRC32 of prefix and random part in six base62 digits, like GitHub's token format. */
export function checksumOf(prefix: string, random: string): string {
  let n = crc32(`${prefix}${random}`);
  let out = '';
  for (let i = 0; i < CHECKSUM_CHARS; i += 1) {
    out = ALPHABET[n % 62]! + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/** A fresh credential value: prefix, 40 random base62 characters, 6 checksum characters. */
export function mintSecret(prefix: SecretPrefix): string {
  const random = randomBase62(RANDOM_CHARS);
  return `${prefix}${random}${checksumOf(prefix, random)}`;
}

/**
 * Whether the value has the shape and checksum of a credential with this prefix: a mistyped or truncated value is
 * refused without a database lookup, and a well-formed value that matches no row is a revoked or deleted one.
 */
export function isWellFormed(prefix: SecretPrefix, value: string): boolean {
  if (!value.startsWith(prefix)) return false;
  const body = value.slice(prefix.length);
  if (!BODY.test(body)) return false;
  const random = body.slice(0, RANDOM_CHARS);
  return body.slice(RANDOM_CHARS) === checksumOf(prefix, random);
}

/** What is stored and looked up: SHA-256 of the whole value (a plain hash suffices for 238 random bits). */
export function secretHash(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
