import type { SecretBox } from '../identity/mfa/secret-box';
import type { WebhookSettingsRow } from './webhook-settings-repository';

/** Bound to the project: a sealed secret copied onto another project's row does not open. */
const aad = (projectId: string) => `webhook-settings:${projectId}`;

export const sealSecret = (box: SecretBox, projectId: string, secret: string) => box.seal(secret, aad(projectId));

/** The secrets that verify now: the current one, and the rotated-out one during its overlap. */
export function liveSecrets(box: SecretBox, row: WebhookSettingsRow, now: Date): string[] {
  const secrets = [box.open(row.secret_sealed, aad(row.project_id))];
  if (row.previous_secret_sealed && row.previous_secret_expires_at && row.previous_secret_expires_at > now) {
    secrets.push(box.open(row.previous_secret_sealed, aad(row.project_id)));
  }
  return secrets;
}
