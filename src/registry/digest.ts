import { createHash } from 'node:crypto';

/** The digest algorithms the registry accepts: sha256 (what every client sends) and sha512 (distribution-spec). */
export const DIGEST_ALGORITHMS = ['sha256', 'sha512'] as const;
export type DigestAlgorithm = (typeof DIGEST_ALGORITHMS)[number];

/** `sha256:<64 hex>` or `sha512:<128 hex>`, lower case (the registered algorithms' canonical encodings). */
export const DIGEST = /^(?:sha256:[a-f0-9]{64}|sha512:[a-f0-9]{128})$/;

export function isDigest(value: string): boolean {
  return DIGEST.test(value);
}

/** The algorithm of a well-formed digest. */
export function algorithmOf(digest: string): DigestAlgorithm {
  return digest.startsWith('sha512:') ? 'sha512' : 'sha256';
}

export function digestOf(content: Buffer, algorithm: DigestAlgorithm = 'sha256'): string {
  return `${algorithm}:${createHash(algorithm).update(content).digest('hex')}`;
}
