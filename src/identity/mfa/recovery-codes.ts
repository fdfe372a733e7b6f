import { randomInt } from 'node:crypto';
import { hashPassword, verifyPassword } from '../password-hash';

export const RECOVERY_CODE_COUNT = 8;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const GROUPS = 5;
const GROUP_LENGTH = 4;

/**
 * `lookup-xxxx-xxxx-xxxx-xxxx`: the first group (20 bits) only finds the row, the other 16 characters (80 bits, CSPRNG)
 * are the secret. Under 112 bits, so it is stored with Argon2id and a random salt as ASVS 6.5.2 asks, and the lookup
 * group means one KDF run per attempt instead of eight.
 */
export interface GeneratedRecoveryCode {
  code: string;
  lookup: string;
  hash: string;
}

function randomGroup(): string {
  let group = '';
  for (let i = 0; i < GROUP_LENGTH; i++) group += ALPHABET[randomInt(ALPHABET.length)];
  return group;
}

export async function generateRecoveryCodes(): Promise<GeneratedRecoveryCode[]> {
  const lookups = new Set<string>();
  while (lookups.size < RECOVERY_CODE_COUNT) lookups.add(randomGroup());
  return Promise.all(
    [...lookups].map(async (lookup) => {
      const secret = Array.from({ length: GROUPS - 1 }, randomGroup);
      return { code: [lookup, ...secret].join('-'), lookup, hash: await hashPassword(secret.join('')) };
    }),
  );
}

/** Tolerates case, spaces and dashes as typed or pasted; null when the shape is wrong. */
export function parseRecoveryCode(input: string): { lookup: string; secret: string } | null {
  const clean = input.toLowerCase().replace(/[\s-]/g, '');
  if (clean.length !== GROUPS * GROUP_LENGTH || ![...clean].every((c) => ALPHABET.includes(c))) return null;
  return { lookup: clean.slice(0, GROUP_LENGTH), secret: clean.slice(GROUP_LENGTH) };
}

export const recoverySecretMatches = verifyPassword;
