import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { normalizeHashAlgorithm, type Base32Plugin, type CryptoPlugin } from '@otplib/core';

/**
 * otplib's default plugins (@noble/@scure) are ESM-only, which the CommonJS test runtime cannot load; node:crypto
 * does the same job natively (HMAC, CSPRNG, constant-time compare), and RFC 4648 base32 is a few lines.
 */
export const nodeCrypto: CryptoPlugin = {
  name: 'node',
  hmac: (algorithm, key, data) =>
    new Uint8Array(createHmac(normalizeHashAlgorithm(algorithm), key).update(data).digest()),
  randomBytes: (length) => new Uint8Array(randomBytes(length)),
  constantTimeEqual: (a, b) => {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  },
};

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, unpadded on output as authenticator apps expect; decoding ignores case, spaces and padding. */
export const base32: Base32Plugin = {
  name: 'rfc4648',
  encode(data, options) {
    let bits = 0;
    let value = 0;
    let out = '';
    for (const byte of data) {
      value = (value << 8) | byte;
      bits += 8;
      while (bits >= 5) {
        out += ALPHABET[(value >>> (bits - 5)) & 31];
        bits -= 5;
      }
    }
    if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
    return options?.padding ? out.padEnd(Math.ceil(out.length / 8) * 8, '=') : out;
  },
  decode(str) {
    const clean = str.toUpperCase().replace(/[\s=]/g, '');
    const bytes: number[] = [];
    let bits = 0;
    let value = 0;
    for (const char of clean) {
      const index = ALPHABET.indexOf(char);
      if (index < 0) throw new Error('invalid base32 character');
      value = (value << 5) | index;
      bits += 5;
      if (bits >= 8) {
        bytes.push((value >>> (bits - 8)) & 255);
        bits -= 8;
      }
    }
    return new Uint8Array(bytes);
  },
};
