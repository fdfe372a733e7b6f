import type { AuditService } from '../audit/audit-service';
import type { IdentityConfig } from '../config/identity';
import type { Db } from '../db/knex';
import type { Logger } from '../logging/logger';
import type { Mailer } from '../mail/mailer';
import type { LoginBackoff } from '../rate-limit/login-backoff';
import type { RateLimiter } from '../rate-limit/fixed-window-limiter';
import type { AuthMails } from './auth-mails';
import type { SecretBox } from './mfa/secret-box';
import type { PasswordPolicy } from './password-policy';
import type { SessionService } from './session-service';

/** What the identity services share, composed once in identity.ts. */
export interface IdentityDeps {
  db: Db;
  audit: AuditService;
  mailer: Mailer;
  log: Logger;
  config: IdentityConfig;
  box: SecretBox;
  mails: AuthMails;
  limiter: RateLimiter;
  backoff: LoginBackoff;
  sessions: SessionService;
  policy: PasswordPolicy;
}
