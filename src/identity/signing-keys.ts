import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { exportJWK, exportPKCS8, exportSPKI, generateKeyPair, importPKCS8, importSPKI, type CryptoKey } from 'jose';

export const ACCESS_TOKEN_ALG = 'ES256';

export interface VerifyKey {
  kid: string;
  publicKey: CryptoKey;
}

export interface SigningKeys {
  kid: string;
  privateKey: CryptoKey;
  /** The current public key first, then previous keys kept until tokens they signed expire. */
  verifyKeys: VerifyKey[];
}

/** kid = thumbprint of the public key, so the same PEM always gets the same kid on every replica. */
async function kidOf(publicKey: CryptoKey): Promise<string> {
  const jwk = await exportJWK(publicKey);
  return createHash('sha256')
    .update(JSON.stringify([jwk.crv, jwk.x, jwk.y]))
    .digest('base64url')
    .slice(0, 16);
}

export async function signingKeysFromPem(privatePem: string, currentPublicPem: string, previousPublicPems: string[]) {
  const privateKey = await importPKCS8(privatePem, ACCESS_TOKEN_ALG);
  const verifyKeys: VerifyKey[] = [];
  for (const pem of [currentPublicPem, ...previousPublicPems]) {
    const publicKey = await importSPKI(pem, ACCESS_TOKEN_ALG);
    verifyKeys.push({ kid: await kidOf(publicKey), publicKey });
  }
  const current = verifyKeys[0];
  if (!current) throw new Error('no verification key');
  return { kid: current.kid, privateKey, verifyKeys } satisfies SigningKeys;
}

export async function generatePemPair(): Promise<{ privatePem: string; publicPem: string }> {
  const { privateKey, publicKey } = await generateKeyPair(ACCESS_TOKEN_ALG, { extractable: true });
  return { privatePem: await exportPKCS8(privateKey), publicPem: await exportSPKI(publicKey) };
}

/**
 * The embedded run keeps one generated key pair under DATA_DIR so tokens survive a restart; production passes the
 * PEMs through configuration instead.
 */
export async function loadOrCreateKeyFile(file: string): Promise<{ privatePem: string; publicPem: string }> {
  if (fs.existsSync(file)) {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as { privatePem: string; publicPem: string };
  }
  const pair = await generatePemPair();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, JSON.stringify(pair), { mode: 0o600 });
  return pair;
}
