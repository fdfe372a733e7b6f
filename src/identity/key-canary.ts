import { randomBytes } from 'node:crypto';
import { CompactSign, compactVerify, type CryptoKey } from 'jose';
import type { Db } from '../db/knex';
import type { ReadinessCheck } from '../http/readiness';
import type { SecretBox } from './mfa/secret-box';
import { ACCESS_TOKEN_ALG, type SigningKeys } from './signing-keys';

/** Associated data of the sealed nonce: a value sealed for a user never opens as the canary, nor the reverse. */
const AAD = 'deployment-key-canary';

interface CanaryRow {
  nonce: string;
  sealed: string;
  /** Signing key id -> compact JWS of the nonce. */
  signatures: Record<string, string>;
}

const sign = (nonce: string, keys: SigningKeys) =>
  new CompactSign(new TextEncoder().encode(nonce))
    .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: keys.kid })
    .sign(keys.privateKey);

async function verifies(jws: string, nonce: string, publicKey: CryptoKey): Promise<boolean> {
  try {
    const { payload } = await compactVerify(jws, publicKey, { algorithms: [ACCESS_TOKEN_ALG] });
    return new TextDecoder().decode(payload) === nonce;
  } catch {
    return false;
  }
}

function opens(row: CanaryRow, secrets: SecretBox): boolean {
  try {
    return secrets.open(row.sealed, AAD) === row.nonce;
  } catch {
    return false;
  }
}

async function readCanary(db: Db): Promise<CanaryRow | undefined> {
  return (await db('key_canary').first('nonce', 'sealed', 'signatures')) as CanaryRow | undefined;
}

/** The first process's canary, or the one a process racing it stored first. */
async function canaryOf(db: Db, secrets: SecretBox, keys: SigningKeys): Promise<CanaryRow> {
  const found = await readCanary(db);
  if (found) return found;
  const nonce = randomBytes(24).toString('base64url');
  await db('key_canary')
    .insert({
      nonce,
      sealed: secrets.seal(nonce, AAD),
      signatures: JSON.stringify({ [keys.kid]: await sign(nonce, keys) }),
    })
    .onConflict('singleton')
    .ignore();
  const stored = await readCanary(db);
  if (!stored) throw new Error('the key canary was not stored');
  return stored;
}

/**
 * The readiness check `keys` (issue 43, M2): this process's MFA_ENCRYPTION_KEY and JWT keys are the deployment's.
 * Fails, naming the setting, when the canary does not open with this process's encryption key, when none of its
 * signatures verifies with this process's public keys (JWT_PUBLIC_KEY and JWT_PREVIOUS_PUBLIC_KEYS), or when the
 * process's own private key does not match its public key. A process that verifies the canary with a previous key
 * (a rotation) adds its current key's signature, so processes configured with only the new key stay ready after
 * the old one is dropped. Reasons name settings and key ids (public-key thumbprints), never key material.
 */
export function keyCanaryCheck(deps: { db: Db; secrets: SecretBox; keys: SigningKeys }): ReadinessCheck {
  const { db, secrets, keys } = deps;
  let pairMatches: Promise<boolean> | null = null;
  return {
    name: 'keys',
    selfCheck: 'fatal',
    async check() {
      const own = keys.verifyKeys[0]!;
      pairMatches ??= sign('key pair', keys).then((jws) => verifies(jws, 'key pair', own.publicKey));
      if (!(await pairMatches)) return 'JWT_PRIVATE_KEY does not belong to JWT_PUBLIC_KEY: tokens it signs would fail';
      const canary = await canaryOf(db, secrets, keys);
      const reasons: string[] = [];
      if (!opens(canary, secrets)) {
        reasons.push(
          "MFA_ENCRYPTION_KEY is not the deployment's: the key canary sealed at first start does not open with it (secrets this process seals would not open in the others, nor theirs here)",
        );
      }
      let trusted = false;
      for (const [kid, jws] of Object.entries(canary.signatures)) {
        const key = keys.verifyKeys.find((k) => k.kid === kid);
        if (key && (await verifies(jws, canary.nonce, key.publicKey))) trusted = true;
      }
      if (!trusted) {
        reasons.push(
          `JWT_PUBLIC_KEY (key ${own.kid}) is not the deployment's: the key canary is signed by key ${Object.keys(canary.signatures).join(', ')} (access tokens would fail across processes; when rotating, put the old public key in JWT_PREVIOUS_PUBLIC_KEYS)`,
        );
      }
      if (reasons.length > 0) return reasons.join('; ');
      if (!(keys.kid in canary.signatures)) {
        await db('key_canary').update({
          signatures: db.raw('signatures || ?::jsonb', [
            JSON.stringify({ [keys.kid]: await sign(canary.nonce, keys) }),
          ]),
        });
      }
      return null;
    },
  };
}
