import path from 'node:path';
import type { Config } from '../config';
import { loadOrCreateKeyFile, signingKeysFromPem, type SigningKeys } from './signing-keys';

/**
 * The JWT keys of this process: JWT_PRIVATE_KEY and JWT_PUBLIC_KEY (required in split mode), else the pair the
 * embedded run keeps under DATA_DIR. Built once per process: the API signs and verifies tokens with them, and every
 * process proves them against the deployment's key canary (src/identity/key-canary.ts).
 */
export async function configuredSigningKeys(config: Config): Promise<SigningKeys> {
  const pems =
    config.jwt.privateKeyPem && config.jwt.publicKeyPem
      ? { privatePem: config.jwt.privateKeyPem, publicPem: config.jwt.publicKeyPem }
      : await loadOrCreateKeyFile(path.join(config.dataDir, 'secrets', 'jwt-signing-key.json'));
  return signingKeysFromPem(pems.privatePem, pems.publicPem, config.jwt.previousPublicKeyPems);
}
