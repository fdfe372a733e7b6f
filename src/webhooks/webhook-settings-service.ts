import { InvalidInput, NotFound } from '../errors';
import type { AuditService } from '../audit/audit-service';
import type { Db } from '../db/knex';
import { orgEntry, type OrgCaller } from '../iam/caller';
import type { SecretBox } from '../identity/mfa/secret-box';
import { listProjectEnvironments } from '../projects/project-environment-repository';
import type { ProjectService } from '../projects/project-service';
import { checkFilter } from './webhook-filters';
import { sealSecret, liveSecrets } from './webhook-secrets';
import {
  deleteSettings,
  findSettings,
  rotateSecret,
  upsertSettings,
  type WebhookSettingsRow,
} from './webhook-settings-repository';
import { newWebhookSecret } from './signature';

export interface WebhookSettingsInput {
  autoUpdateEnvironments: string[];
  imageFilter?: string | null;
  tagFilter?: string | null;
}

const view = (slug: string, row: WebhookSettingsRow) => ({
  project: slug,
  configured: true,
  autoUpdateEnvironments: row.auto_update_environments,
  imageFilter: row.image_filter,
  tagFilter: row.tag_filter,
  previousSecretValidUntil:
    row.previous_secret_expires_at && row.previous_secret_expires_at > new Date()
      ? row.previous_secret_expires_at.toISOString()
      : null,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

export type WebhookSettingsService = ReturnType<typeof createWebhookSettingsService>;

/**
 * Inbound webhook settings of a project (spec "Outbound notification channel", inbound settings): the shared secret
 * (generated, shown once, rotated with an overlap), the environments updated automatically, and the image and tag
 * filters, checked on save on the linear-time regex engine.
 */
export function createWebhookSettingsService(deps: {
  db: Db;
  audit: AuditService;
  secrets: SecretBox;
  projects: Pick<ProjectService, 'projectOf'>;
  secretOverlapMs: number;
}) {
  const { db, audit } = deps;

  async function settingsOf(caller: OrgCaller, slug: string) {
    const project = await deps.projects.projectOf(caller, slug);
    const row = await findSettings(db, project.id);
    if (!row) throw new NotFound('inbound webhook settings not configured for this project');
    return { project, row };
  }

  return {
    /** The settings, or `configured: false` (image updates for the project then answer 401). */
    async get(caller: OrgCaller, slug: string) {
      const project = await deps.projects.projectOf(caller, slug);
      const row = await findSettings(db, project.id);
      if (!row) {
        return {
          project: project.slug,
          configured: false,
          autoUpdateEnvironments: [],
          imageFilter: null,
          tagFilter: null,
          previousSecretValidUntil: null,
        };
      }
      return view(project.slug, row);
    },

    /** Creates (with a new secret, shown in this answer only) or changes the settings. */
    async put(caller: OrgCaller, slug: string, input: WebhookSettingsInput) {
      const project = await deps.projects.projectOf(caller, slug);
      const envs = new Set((await listProjectEnvironments(db, project.id)).map((e) => e.environment));
      const unknown = input.autoUpdateEnvironments.filter((e) => !envs.has(e));
      if (unknown.length > 0) throw new InvalidInput(`not environments of the project: ${unknown.join(', ')}`);
      const imageFilter = checkFilter('imageFilter', input.imageFilter);
      const tagFilter = checkFilter('tagFilter', input.tagFilter);
      return db.transaction(async (trx) => {
        const existing = await findSettings(trx, project.id);
        const secret = existing ? null : newWebhookSecret();
        const row = await upsertSettings(trx, {
          project_id: project.id,
          organization_id: project.organizationId,
          secret_sealed: existing?.secret_sealed ?? sealSecret(deps.secrets, project.id, secret as string),
          auto_update_environments: [...new Set(input.autoUpdateEnvironments)].sort(),
          image_filter: imageFilter,
          tag_filter: tagFilter,
        });
        const details = {
          project: project.slug,
          autoUpdateEnvironments: row.auto_update_environments,
          imageFilter,
          tagFilter,
        };
        await audit.append(
          trx,
          orgEntry(caller, {
            action: existing ? 'webhook.settings.update' : 'webhook.settings.create',
            category: 'webhook',
            projectId: project.id,
            resourceType: 'project',
            resourceId: project.id,
            details,
          }),
        );
        return { created: existing === null, settings: { ...view(project.slug, row), ...(secret ? { secret } : {}) } };
      });
    },

    /** A new secret, shown once; the old one keeps verifying for the overlap so senders can switch. */
    async rotate(caller: OrgCaller, slug: string) {
      const { project, row } = await settingsOf(caller, slug);
      const secret = newWebhookSecret();
      const until = new Date(Date.now() + deps.secretOverlapMs);
      // The current secret is still checked here: a row whose seal does not open fails loudly, not silently.
      liveSecrets(deps.secrets, row, new Date());
      await db.transaction(async (trx) => {
        await rotateSecret(trx, project.id, sealSecret(deps.secrets, project.id, secret), row.secret_sealed, until);
        await audit.append(
          trx,
          orgEntry(caller, {
            action: 'webhook.secret.rotate',
            category: 'webhook',
            projectId: project.id,
            resourceType: 'project',
            resourceId: project.id,
            details: { project: project.slug, previousSecretValidUntil: until.toISOString() },
          }),
        );
      });
      return { secret, previousSecretValidUntil: until.toISOString() };
    },

    async remove(caller: OrgCaller, slug: string) {
      const { project } = await settingsOf(caller, slug);
      await db.transaction(async (trx) => {
        await deleteSettings(trx, project.id);
        await audit.append(
          trx,
          orgEntry(caller, {
            action: 'webhook.settings.delete',
            category: 'webhook',
            projectId: project.id,
            resourceType: 'project',
            resourceId: project.id,
            details: { project: project.slug },
          }),
        );
      });
    },
  };
}
