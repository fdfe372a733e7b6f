import type { AuditService } from '../audit/audit-service';
import type { Db, Queryable } from '../db/knex';
import { Conflict, NotFound } from '../errors';
import { auditActor, type OrgCaller } from '../iam/caller';
import { timestampsOf } from '../db/owned-rows';
import type { CrdRecord, ValidationEngine } from '../validation';
import { takeAdvisoryLock } from '../db/advisory-lock';

/** Upper bound on CRDs per organization, so one tenant cannot make every validation call slow. */
export const MAX_CRDS_PER_ORGANIZATION = 200;

export interface RegisteredCrd {
  id: string;
  name: string;
  group: string;
  kind: string;
  scope: CrdRecord['scope'];
  versions: string[];
  createdAt: string;
  updatedAt: string;
}

interface CrdRow {
  id: string;
  name: string;
  group: string;
  kind: string;
  record: CrdRecord;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = ['id', 'name', 'group', 'kind', 'record', 'created_at', 'updated_at'] as const;

function toRegistered(row: CrdRow): RegisteredCrd {
  return {
    id: row.id,
    name: row.name,
    group: row.group,
    kind: row.kind,
    scope: row.record.scope,
    versions: row.record.versions.map((v) => v.name),
    ...timestampsOf(row),
  };
}

export interface CrdService {
  /** Checks the CRD and registers it for the caller's organization; a CRD of the same name is replaced. */
  register(caller: OrgCaller, yamlText: string): Promise<{ crd: RegisteredCrd; created: boolean }>;
  list(organizationId: string): Promise<RegisteredCrd[]>;
  remove(caller: OrgCaller, id: string): Promise<void>;
  /** What the engine needs to validate custom resources of this organization. */
  records(organizationId: string): Promise<CrdRecord[]>;
}

export function createCrdService(db: Db, audit: AuditService, engine: ValidationEngine): CrdService {
  const rows = (q: Queryable, organizationId: string) =>
    q('custom_resource_definitions').where({ organization_id: organizationId }).orderBy('name');
  return {
    async register(caller, yamlText) {
      const record = engine.checkCrd(yamlText);
      const { organizationId } = caller;
      return db.transaction(async (trx) => {
        await takeAdvisoryLock(trx, `crds:${organizationId}`);
        const existing = (await rows(trx, organizationId).where({ name: record.name }).first('id')) as
          { id: string } | undefined;
        if (!existing) {
          const count = Number(
            ((await rows(trx, organizationId).clearOrder().count({ n: '*' }).first()) as { n: string }).n,
          );
          if (count >= MAX_CRDS_PER_ORGANIZATION) {
            throw new Conflict(`an organization can register at most ${MAX_CRDS_PER_ORGANIZATION} CRDs`);
          }
        }
        const values = {
          group: record.group,
          kind: record.kind,
          record: JSON.stringify(record),
          updated_at: trx.fn.now(),
        };
        const [row] = (
          existing
            ? await trx('custom_resource_definitions').where({ id: existing.id }).update(values).returning(COLUMNS)
            : await trx('custom_resource_definitions')
                .insert({
                  ...values,
                  organization_id: organizationId,
                  name: record.name,
                  created_by: caller.principal.userId,
                })
                .returning(COLUMNS)
        ) as CrdRow[];
        const crd = toRegistered(row!);
        await audit.append(trx, {
          organizationId,
          ...auditActor(caller),
          action: existing ? 'k8s.crd.update' : 'k8s.crd.register',
          category: 'configuration',
          resourceType: 'crd',
          resourceId: crd.id,
          details: {
            name: crd.name,
            kind: crd.kind,
            versions: crd.versions,
            convertedFrom: record.convertedFrom ?? null,
          },
        });
        return { crd, created: !existing };
      });
    },
    async list(organizationId) {
      return ((await rows(db, organizationId).select(COLUMNS)) as CrdRow[]).map(toRegistered);
    },
    async remove(caller, id) {
      const { organizationId } = caller;
      await db.transaction(async (trx) => {
        const [row] = (await trx('custom_resource_definitions')
          .where({ id, organization_id: organizationId })
          .delete()
          .returning(['id', 'name', 'kind'])) as Array<{ id: string; name: string; kind: string }>;
        if (!row) throw new NotFound('CRD not found');
        await audit.append(trx, {
          organizationId,
          ...auditActor(caller),
          action: 'k8s.crd.delete',
          category: 'configuration',
          resourceType: 'crd',
          resourceId: row.id,
          details: { name: row.name, kind: row.kind },
        });
      });
    },
    async records(organizationId) {
      return ((await rows(db, organizationId).select('record')) as Array<{ record: CrdRecord }>).map((r) => r.record);
    },
  };
}
