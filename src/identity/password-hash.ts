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
