import { InvalidInput, NotFound } from '../errors';
import type { OrgCaller } from '../iam/caller';
import { resourceAuditor, type OrgDomainDeps } from '../iam/cross-org';
import type { SecretBox } from '../identity/mfa/secret-box';
import { checkSmtpTarget, TargetRefused, type OutboundPolicy } from '../net/outbound-policy';
import { smtpPasswordAad, type OrgMailer } from './org-mailer';
import {
  deleteSmtpSettings,
  findSmtpSettings,
  upsertSmtpSettings,
  type SmtpSecurity,
  type SmtpSettingsRecord,
} from './smtp-settings-repository';

export interface SmtpSettingsInput {
  host: string;
  port: number;
  security: SmtpSecurity;
  username?: string | null;
  /** Absent keeps the stored password; null removes it. Never returned. */
  password?: string | null;
  from: string;
}

/** `configured: false`: the organization's notification email goes through the platform's relay (SMTP_URL). */
export type SmtpSettingsAnswer = ({ configured: true } & SmtpSettingsView) | { configured: false };

export interface SmtpSettingsView {
  host: string;
  port: number;
  security: SmtpSecurity;
  username: string | null;
  hasPassword: boolean;
  from: string;
  updatedAt: string;
}

export interface SmtpTestResult {
  status: 'success' | 'failed' | 'refused';
  error: string | null;
  durationMs: number;
}

export interface SmtpServiceDeps extends OrgDomainDeps {
  secrets: SecretBox;
  outbound: OutboundPolicy;
  mail: OrgMailer;
}

export type SmtpService = ReturnType<typeof createSmtpService>;

const viewOf = (s: SmtpSettingsRecord): SmtpSettingsView => ({
  host: s.host,
  port: s.port,
  security: s.security,
  username: s.username,
  hasPassword: s.passwordSealed !== null,
  from: s.fromAddress,
  updatedAt: s.updatedAt,
});

/**
 * The organization's own SMTP relay for notification email (/api/v2/notifications/smtp): set, read (never the
 * password), test, delete. The host and port are checked like every outbound target when saved and at every send.
 */
export function createSmtpService(deps: SmtpServiceDeps) {
  const { db } = deps;
  const record = resourceAuditor(deps.audit, 'webhook', 'notification smtp settings');
  const resource = (caller: OrgCaller) => ({ id: caller.organizationId, slug: 'smtp' });

  async function stored(caller: OrgCaller): Promise<SmtpSettingsRecord> {
    const settings = await findSmtpSettings(db, caller.organizationId);
    if (!settings) throw new NotFound('SMTP settings not found');
    return settings;
  }

  async function checked(input: SmtpSettingsInput): Promise<void> {
    if (input.security === 'none' && !deps.outbound.allowHttp) {
      throw new InvalidInput('plain SMTP (security none) is not allowed; use tls or starttls');
    }
    try {
      await checkSmtpTarget(input.host, input.port, deps.outbound);
    } catch (err) {
      if (err instanceof TargetRefused) throw new InvalidInput(err.message);
      throw err;
    }
  }

  return {
    async get(caller: OrgCaller): Promise<SmtpSettingsAnswer> {
      const settings = await findSmtpSettings(db, caller.organizationId);
      return settings ? { configured: true, ...viewOf(settings) } : { configured: false };
    },

    async put(caller: OrgCaller, input: SmtpSettingsInput): Promise<SmtpSettingsView> {
      await checked(input);
      const saved = await db.transaction(async (trx) => {
        const previous = await findSmtpSettings(trx, caller.organizationId);
        const passwordSealed =
          input.password === undefined
            ? (previous?.passwordSealed ?? null)
            : input.password === null
              ? null
              : deps.secrets.seal(input.password, smtpPasswordAad(caller.organizationId));
        const row = await upsertSmtpSettings(trx, {
          organizationId: caller.organizationId,
          host: input.host,
          port: input.port,
          security: input.security,
          username: input.username ?? null,
          passwordSealed,
          fromAddress: input.from,
          updatedBy: caller.principal.userId,
        });
        await record(trx, caller, 'notification.smtp.update', resource(caller), {
          host: input.host,
          port: input.port,
          security: input.security,
          username: row.username,
          from: input.from,
          password: input.password === undefined ? 'kept' : input.password === null ? 'removed' : 'changed',
        });
        return row;
      });
      return viewOf(saved);
    },

    async delete(caller: OrgCaller): Promise<void> {
      await db.transaction(async (trx) => {
        if (!(await deleteSmtpSettings(trx, caller.organizationId))) throw new NotFound('SMTP settings not found');
        await record(trx, caller, 'notification.smtp.delete', resource(caller));
      });
    },

    /** Sends a test mail to `to` through the stored relay now; the outcome is answered and audited, never thrown. */
    async test(caller: OrgCaller, to: string): Promise<SmtpTestResult> {
      const settings = await stored(caller);
      const started = Date.now();
      let result: SmtpTestResult;
      try {
        await deps.mail.sendVia(settings, {
          to,
          subject: 'Test mail from the delivery platform',
          text: `This is a test of your organization's SMTP settings (${settings.host}:${settings.port}).`,
        });
        result = { status: 'success', error: null, durationMs: Date.now() - started };
      } catch (err) {
        const status = err instanceof TargetRefused ? 'refused' : 'failed';
        result = { status, error: (err as Error).message, durationMs: Date.now() - started };
      }
      await db.transaction((trx) =>
        record(trx, caller, 'notification.smtp.test', resource(caller), { to, status: result.status }),
      );
      return result;
    },
  };
}
