import { hkdfSync } from 'node:crypto';
import { createSecretBox } from '../identity/mfa/secret-box';

/** Seals external remote tokens at rest: AES-256-GCM bound to the project id (a token moved to another row fails). */
export interface RemoteTokenBox {
  seal(token: string, projectId: string): string;
  open(sealed: string, projectId: string): string;
}

/**
 * The platform's one secrets master key (MFA_ENCRYPTION_KEY, or the key generated under DATA_DIR) with a subkey derived
 * for this purpose only, so remote tokens and TOTP seeds never share an encryption key.
 */
export function createRemoteTokenBox(masterKey: Buffer): RemoteTokenBox {
  const subkey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'git-remote-token', 32));
  const box = createSecretBox(subkey);
  return {
    seal: (token, projectId) => box.seal(token, projectId),
    open: (sealed, projectId) => box.open(sealed, projectId),
  };
}
