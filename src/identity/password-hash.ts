import { randomBytes } from 'node:crypto';
import { hash, verify, Algorithm } from '@node-rs/argon2';

/** Argon2id at the OWASP floor (19 MiB, t=2, p=1); the whole password is hashed, never truncated or case-folded. */
const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * Verifies against a hash of a random value, so an unknown email or a password-less (OAuth-only) account costs the
 * same KDF time as a real check and timing does not tell which accounts exist.
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(24).toString('base64url'));
  await verifyPassword(await dummy, password);
  return false;
}
