import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * AES-256-GCM for TOTP seeds at rest (MFA-6), and an HMAC for email OTPs. The ciphertext is bound to the user id as
 * associated data, so a sealed seed copied onto another user's row does not open.
 */
export interface SecretBox {
  seal(plain: string, userId: string): string;
  open(sealed: string, userId: string): string;
  /** Keyed hash of a short code (email OTP): a plain hash of 10^6 values would fall to a lookup table. */
  mac(value: string): string;
}

const VERSION = 'v1';

export function createSecretBox(masterKey: Buffer): SecretBox {
  const encKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'mfa-seed-encryption', 32));
  const macKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'otp-mac', 32));
  return {
    seal(plain, userId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encKey, iv);
      cipher.setAAD(Buffer.from(userId, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [
        VERSION,
        iv.toString('base64url'),
        body.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
      ].join('.');
    },
    open(sealed, userId) {
      const [version, iv, body, tag] = sealed.split('.');
      if (version !== VERSION || !iv || !body || !tag) throw new Error('unsupported sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', encKey, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(userId, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
    mac: (value) => createHmac('sha256', macKey).update(value, 'utf8').digest('hex'),
  };
}

/**
 * MFA_ENCRYPTION_KEY when configured; the embedded run generates one under DATA_DIR and keeps it, like the JWT key.
 * Losing this key makes every enrolled authenticator unusable, so production should configure it.
 */
export function loadMfaKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return Buffer.from(configured, 'base64');
  const file = path.join(dataDir, 'secrets', 'mfa-encryption-key');
  if (fs.existsSync(file)) return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  const key = randomBytes(32);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process of the same deployment created it first: use that one, never a second key.
    if ((err as { code?: string }).code !== 'EEXIST') throw err;
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  }
  return key;
}
