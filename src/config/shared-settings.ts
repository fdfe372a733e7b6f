import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './index';

/**
 * The settings a split-mode process (`scripts/serve.ts api|worker`) refuses to start without, taken from a running
 * embedded platform (the keys it generated under its DATA_DIR, its PUBLIC_URL), so a process started with them joins
 * that deployment: what tests and benches that spawn a second process use (docs/operations.md).
 */
export function sharedSettings(config: Config): Record<string, string> {
  const secrets = path.join(config.dataDir, 'secrets');
  const jwt = JSON.parse(fs.readFileSync(path.join(secrets, 'jwt-signing-key.json'), 'utf8')) as {
    privatePem: string;
    publicPem: string;
  };
  return {
    JWT_PRIVATE_KEY: jwt.privatePem,
    JWT_PUBLIC_KEY: jwt.publicPem,
    MFA_ENCRYPTION_KEY: fs.readFileSync(path.join(secrets, 'mfa-encryption-key'), 'utf8').trim(),
    PUBLIC_URL: config.publicUrl,
    GIT_REPOSITORIES_DIR: config.gitops.repositoriesDir,
  };
}
