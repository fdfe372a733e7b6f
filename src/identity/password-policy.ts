import fs from 'node:fs';
import path from 'node:path';
import { InvalidInput } from '../errors';
import { repoRoot } from '../paths';

/** Counted in Unicode code points, so a 64-emoji password is 64 characters (ASVS 6.2.1, 6.2.9). */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export interface PasswordPolicy {
  /** Throws InvalidInput with a message the user can act on; no composition rules (ASVS 6.2.5). */
  check(password: string, email: string): void;
}

function readList(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** The shipped list of frequent passwords, plus an operator-supplied one (PASSWORD_BLOCKLIST_FILE). */
export function createPasswordPolicy(extraListFile?: string): PasswordPolicy {
  const shipped = path.join(repoRoot(), 'src', 'identity', 'common-passwords.txt');
  const blocked = new Set(
    [...readList(shipped), ...(extraListFile ? readList(extraListFile) : [])].map((p) => p.toLowerCase()),
  );
  return {
    check(password, email) {
      const length = [...password].length;
      if (length < PASSWORD_MIN) throw new InvalidInput(`password must be at least ${PASSWORD_MIN} characters`);
      if (length > PASSWORD_MAX) throw new InvalidInput(`password must be at most ${PASSWORD_MAX} characters`);
      const lower = password.toLowerCase();
      const localPart = email.toLowerCase().split('@')[0] ?? '';
      if (blocked.has(lower) || new Set(password).size === 1) {
        throw new InvalidInput('this password is too common; choose another one');
      }
      if (lower === email.toLowerCase() || (localPart.length >= 4 && lower === localPart)) {
        throw new InvalidInput('the password must not be your email address');
      }
    },
  };
}
