import type { Queryable } from '../db/knex';

/** How the connection to an organization's relay is protected. */
export type SmtpSecurity = 'tls' | 'starttls' | 'none';

/** An organization's own SMTP relay (table organization_smtp_settings); the password stays sealed here. */
export interface SmtpSettingsRecord {
  organizationId: string;
  host: string;
  port: number;
  security: SmtpSecurity;
  username: string | null;
  passwordSealed: string | null;
  fromAddress: string;
  updatedBy: string | null;
  updatedAt: string;
}

interface Row {
  organization_id: string;
  host: string;
  port: number;
  security: SmtpSecurity;
  username: string | null;
  password_sealed: string | null;
  from_address: string;
  updated_by: string | null;
  updated_at: Date;
}

const toRecord = (r: Row): SmtpSettingsRecord => ({
  organizationId: r.organization_id,
  host: r.host,
  port: r.port,
  security: r.security,
  username: r.username,
  passwordSealed: r.password_sealed,
  fromAddress: r.from_address,
  updatedBy: r.updated_by,
  updatedAt: r.updated_at.toISOString(),
});

export async function findSmtpSettings(db: Queryable, organizationId: string): Promise<SmtpSettingsRecord | null> {
  const row = (await db('organization_smtp_settings').where({ organization_id: organizationId }).first()) as
    Row | undefined;
  return row ? toRecord(row) : null;
}

export async function upsertSmtpSettings(
  db: Queryable,
  s: Omit<SmtpSettingsRecord, 'updatedAt'>,
): Promise<SmtpSettingsRecord> {
  const values = {
    host: s.host,
    port: s.port,
    security: s.security,
    username: s.username,
    password_sealed: s.passwordSealed,
    from_address: s.fromAddress,
    updated_by: s.updatedBy,
  };
  const [row] = (await db('organization_smtp_settings')
    .insert({ organization_id: s.organizationId, ...values })
    .onConflict('organization_id')
    .merge({ ...values, updated_at: db.fn.now() })
    .returning('*')) as Row[];
  return toRecord(row!);
}

export async function deleteSmtpSettings(db: Queryable, organizationId: string): Promise<boolean> {
  return (await db('organization_smtp_settings').where({ organization_id: organizationId }).delete()) > 0;
}
