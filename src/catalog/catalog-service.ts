import type { Tx } from '../db/knex';
import type { PageRequest } from '../db/pagination';
import type { OrgCaller } from '../iam/caller';
import { notFoundInOrg, resourceAuditor, type OrgDomainDeps } from '../iam/cross-org';
import { SUPPORTED_K8S_VERSIONS, type ValidationEngine } from '../validation';
import { checkFiles } from './catalog-files';
import {
  deleteCatalogVersions,
  findCatalogVersion,
  insertCatalogVersion,
  listCatalogVersions,
  type CatalogKind,
  type CatalogVersion,
} from './catalog-repository';
import { validateCatalogFiles, type CatalogValidation } from './catalog-validation';

export interface CatalogUpload {
  name: string;
  version: string;
  /** The newest supported release when absent. */
  kubernetesVersion?: string;
  files: Record<string, string>;
}

/** An upload's outcome: the stored version, or null when the validation refused it (nothing stored). */
export interface CatalogUploadOutcome {
  stored: CatalogVersion | null;
  validation: CatalogValidation;
}

const NEWEST_K8S_VERSION: string = SUPPORTED_K8S_VERSIONS[SUPPORTED_K8S_VERSIONS.length - 1]!;

/** How one kind appears in messages and audit entries. */
const LABELS: Record<CatalogKind, { resourceType: string; label: string }> = {
  'kustomize-base': { resourceType: 'kustomize_base', label: 'kustomize base' },
  'manifest-bundle': { resourceType: 'manifest_bundle', label: 'manifest bundle' },
};

/**
 * The catalog of one kind (kustomize bases or manifest bundles) of the caller's organization: uploads validated
 * before anything is stored, audited (category `configuration`) in the transaction of the change. A name of another
 * organization answers 404 exactly like a missing one.
 */
export function createCatalogService(deps: OrgDomainDeps & { validation: ValidationEngine }, kind: CatalogKind) {
  const { db } = deps;
  const { resourceType, label } = LABELS[kind];
  const audited = resourceAuditor(deps.audit, 'configuration', resourceType);
  const record = (trx: Tx, caller: OrgCaller, action: string, v: CatalogVersion) =>
    audited(trx, caller, `${resourceType}.${action}`, { id: v.id, slug: v.name }, { version: v.version });
  const missing = (caller: OrgCaller, name: string) =>
    notFoundInOrg(deps, caller, {
      table: 'catalog_artifacts',
      column: 'name',
      value: name,
      resourceType: label,
      category: 'configuration',
    });

  return {
    list: (caller: OrgCaller, filter: { name?: string }, page: PageRequest) =>
      listCatalogVersions(db, caller.organizationId, kind, filter, page),

    async get(caller: OrgCaller, name: string, version: string) {
      return (await findCatalogVersion(db, caller.organizationId, kind, name, version)) ?? missing(caller, name);
    },

    async upload(caller: OrgCaller, input: CatalogUpload): Promise<CatalogUploadOutcome> {
      const totalBytes = checkFiles(input.files);
      const kubernetesVersion = input.kubernetesVersion ?? NEWEST_K8S_VERSION;
      const validation = validateCatalogFiles(deps.validation, kind, input.files, kubernetesVersion);
      if (!validation.valid) return { stored: null, validation };
      const stored = await db.transaction(async (trx) => {
        const created = await insertCatalogVersion(trx, caller.organizationId, kind, {
          ...input,
          kubernetesVersion,
          totalBytes,
          createdBy: caller.principal.userId,
        });
        await record(trx, caller, 'upload', created);
        return created;
      });
      return { stored, validation };
    },

    /** Deletes one version, or every version when `version` is undefined; 404 when nothing matched. */
    async remove(caller: OrgCaller, name: string, version?: string): Promise<void> {
      const deleted = await db.transaction(async (trx) => {
        const gone = await deleteCatalogVersions(trx, caller.organizationId, kind, name, version);
        for (const v of gone) await record(trx, caller, 'delete', v);
        return gone.length;
      });
      if (deleted === 0) await missing(caller, name);
    },
  };
}
export type CatalogService = ReturnType<typeof createCatalogService>;
