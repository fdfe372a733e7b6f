import type { Tx } from '../db/knex';
import type { PageRequest } from '../db/pagination';
import { Conflict, InvalidInput } from '../errors';
import { auditActor, type OrgCaller } from '../iam/caller';
import { notFoundInOrg, type OrgDomainDeps } from '../iam/cross-org';
import { OciError } from '../registry/oci-errors';
import type { RegistryCaller, RegistryService } from '../registry/registry-service';
import { SUPPORTED_K8S_VERSIONS, isSupportedVersion, type ValidationEngine } from '../validation';
import { CATALOG_ARTIFACTS, CATALOG_FILE_LAYER } from './catalog-artifacts';
import { checkFiles } from './catalog-files';
import {
  deleteCatalogVersions,
  findCatalogVersion,
  insertCatalogVersion,
  listCatalogVersions,
  type CatalogKind,
  type CatalogVersion,
} from './catalog-repository';
import { validateCatalogFiles, type BaseBuilder, type CatalogValidation } from './catalog-validation';

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
const NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** One line of a refused push: the first error and how many there were. */
function refusal(validation: CatalogValidation): string {
  const first = validation.results.find((r) => r.severity === 'error');
  return `validation failed (${validation.summary.errors} errors), nothing was stored: ${first?.file}: ${first?.message}`;
}

export function createCatalogService(
  deps: OrgDomainDeps & {
    validation: ValidationEngine;
    /** The sandboxed `kustomize build` a base upload runs (src/tools/kustomize-build.ts). */
    buildBase: BaseBuilder;
    registry: Pick<RegistryService, 'storeArtifact' | 'removeArtifact'>;
  },
  kind: CatalogKind,
) {
  const { db } = deps;
  const { resourceType, label } = LABELS[kind];
  const artifact = CATALOG_ARTIFACTS[kind];
  const actorOf = (caller: OrgCaller): RegistryCaller => ({
    organizationId: caller.organizationId,
    ...auditActor(caller),
  });
  const record = (trx: Tx, actor: RegistryCaller, action: string, v: CatalogVersion) =>
    deps.audit.append(trx, {
      ...actor,
      action: `${resourceType}.${action}`,
      category: 'configuration',
      resourceType,
      resourceId: v.id,
      details: { slug: v.name, version: v.version },
    });
  const insert = async (trx: Tx, actor: RegistryCaller, input: Required<CatalogUpload>, totalBytes: number) => {
    const created = await insertCatalogVersion(trx, actor.organizationId, kind, {
      ...input,
      totalBytes,
      createdBy: actor.userId,
    });
    await record(trx, actor, 'upload', created);
    return created;
  };
  const validate = (organizationId: string, files: Record<string, string>, kubernetesVersion: string) =>
    validateCatalogFiles(deps.validation, kind, files, kubernetesVersion, (f) => deps.buildBase(organizationId, f));
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
      const validation = await validate(caller.organizationId, input.files, kubernetesVersion);
      if (!validation.valid) return { stored: null, validation };
      const actor = actorOf(caller);
      const stored = await db.transaction(async (trx) => {
        const created = await insert(trx, actor, { ...input, kubernetesVersion }, totalBytes);
        const target = { name: `${artifact.prefix}${input.name}`, tag: input.version, ...artifact };
        await deps.registry.storeArtifact(trx, actor, { ...target, layerMediaType: CATALOG_FILE_LAYER }, input.files);
        return created;
      });
      return { stored, validation };
    },

    /**
     * A version pushed through /v2/ (src/catalog/catalog-registry-hook.ts): the same checks and validation as an
     * upload (a base's `kustomize build` included), before the push's transaction and refused with an OciError so the
     * push stores nothing; the step returned records the version in the push's transaction.
     */
    async preparePushed(actor: RegistryCaller, input: CatalogUpload): Promise<(trx: Tx) => Promise<void>> {
      const invalid = (message: string): never => {
        throw new OciError('MANIFEST_INVALID', message);
      };
      if (!NAME.test(input.name)) invalid(`${input.name} is not a valid ${label} name (a lowercase slug)`);
      const kubernetesVersion = input.kubernetesVersion ?? NEWEST_K8S_VERSION;
      if (!isSupportedVersion(kubernetesVersion)) invalid(`unsupported Kubernetes ${kubernetesVersion}`);
      let totalBytes = 0;
      try {
        totalBytes = checkFiles(input.files);
      } catch (err) {
        if (err instanceof InvalidInput) invalid(err.message);
        throw err;
      }
      const validation = await validate(actor.organizationId, input.files, kubernetesVersion);
      if (!validation.valid) invalid(refusal(validation));
      return async (trx) => {
        try {
          await insert(trx, actor, { ...input, kubernetesVersion }, totalBytes);
        } catch (err) {
          if (err instanceof Conflict) throw new OciError('DENIED', `${err.message}: versions are immutable`, 409);
          throw err;
        }
      };
    },

    /** Deletes one version, or every version when `version` is undefined; 404 when nothing matched. */
    async remove(caller: OrgCaller, name: string, version?: string): Promise<void> {
      const deleted = await db.transaction(async (trx) => {
        const gone = await deleteCatalogVersions(trx, caller.organizationId, kind, name, version);
        for (const v of gone) {
          await record(trx, actorOf(caller), 'delete', v);
          await deps.registry.removeArtifact(trx, actorOf(caller), `${artifact.prefix}${name}`, v.version);
        }
        return gone.length;
      });
      if (deleted === 0) await missing(caller, name);
    },
  };
}
export type CatalogService = ReturnType<typeof createCatalogService>;
