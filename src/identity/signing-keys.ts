import { createHash, randomBytes } from 'node:crypto';
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

type PemPair = { privatePem: string; publicPem: string };

const readPair = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as PemPair;

/**
 * The embedded run keeps one generated key pair under DATA_DIR so tokens survive a restart; production passes the
 * PEMs through configuration instead. The file appears complete or not at all (written aside, then hard-linked,
 * which fails if it exists), and whoever loses a race to create it uses the winner's key, never a second one.
 */
export async function loadOrCreateKeyFile(file: string): Promise<PemPair> {
  if (fs.existsSync(file)) return readPair(file);
  const pair = await generatePemPair();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(draft, JSON.stringify(pair), { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(draft, file);
    return pair;
  } catch (err) {
    if ((err as { code?: string }).code !== 'EEXIST') throw err;
    return readPair(file);
  } finally {
    fs.rmSync(draft, { force: true });
  }
}
