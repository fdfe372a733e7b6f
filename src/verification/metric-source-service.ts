import { randomUUID } from 'node:crypto';
import type { Page, PageRequest } from '../db/pagination';
import { InvalidInput } from '../errors';
import type { OrgCaller } from '../iam/caller';
import { orgResource, type OrgDomainDeps } from '../iam/cross-org';
import type { SecretBox } from '../identity/mfa/secret-box';
import { checkTarget, TargetRefused, type OutboundPolicy } from '../net/outbound-policy';
import {
  deleteMetricSource,
  findMetricSource,
  findMetricSourceByName,
  insertMetricSource,
  listMetricSources,
  updateMetricSource,
  type MetricSourceKind,
  type MetricSourceRecord,
} from './metric-source-repository';

export interface MetricSourceInput {
  name: string;
  kind: MetricSourceKind;
  url: string;
  /** Sent as `Authorization: Bearer`; sealed at rest, never answered. */
  token?: string;
}

export interface MetricSourceChanges {
  name?: string;
  url?: string;
  /** Absent keeps the stored token; null removes it. */
  token?: string | null;
}

export interface MetricSourceView {
  id: string;
  name: string;
  kind: MetricSourceKind;
  url: string;
  hasToken: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What a measurement needs of a source: where to ask and with which token (opened). */
export interface OpenedMetricSource {
  name: string;
  kind: MetricSourceKind;
  url: string;
  token: string | null;
}

export interface MetricSourceServiceDeps extends OrgDomainDeps {
  secrets: SecretBox;
  outbound: OutboundPolicy;
}

export type MetricSourceService = ReturnType<typeof createMetricSourceService>;

/** Bound to the source id: a sealed token copied onto another source's row does not open. */
const aad = (id: string) => `metric-source:${id}`;

const viewOf = (s: MetricSourceRecord): MetricSourceView => ({
  id: s.id,
  name: s.name,
  kind: s.kind,
  url: s.url,
  hasToken: s.tokenSealed !== null,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

/**
 * An organization's metric sources (/api/v2/metric-sources): the Prometheus HTTP APIs rollout verification queries.
 * The URL is checked by the outbound rules of notification targets when saved and again at every query
 * (activities/verification.ts); the bearer token is sealed at rest and never answered (`hasToken`).
 */
export function createMetricSourceService(deps: MetricSourceServiceDeps) {
  const { db } = deps;
  const { lookup, record, found } = orgResource(
    deps,
    { table: 'metric_sources', resourceType: 'metric source', category: 'configuration' },
    findMetricSource,
  );

  async function checked(url: string): Promise<void> {
    try {
      const target = await checkTarget(url, deps.outbound);
      if (target.url.search || target.url.hash) throw new TargetRefused('target URL must not have a query or fragment');
    } catch (err) {
      if (err instanceof TargetRefused) throw new InvalidInput(err.message);
      throw err;
    }
  }

  const audited = (s: MetricSourceRecord) => ({ id: s.id, slug: s.name });

  return {
    list: async (caller: OrgCaller, page: PageRequest): Promise<Page<MetricSourceView>> => {
      const result = await listMetricSources(db, caller.organizationId, page);
      return { ...result, items: result.items.map(viewOf) };
    },

    get: async (caller: OrgCaller, id: string) => viewOf(await lookup(caller, id)),

    async create(caller: OrgCaller, input: MetricSourceInput): Promise<MetricSourceView> {
      await checked(input.url);
      const id = randomUUID();
      return db.transaction(async (trx) => {
        const source = await insertMetricSource(trx, caller.organizationId, {
          id,
          name: input.name,
          kind: input.kind,
          url: input.url,
          tokenSealed: input.token === undefined ? null : deps.secrets.seal(input.token, aad(id)),
          createdBy: caller.principal.userId,
        });
        await record(trx, caller, 'metric_source.create', audited(source), {
          kind: source.kind,
          url: source.url,
          token: input.token === undefined ? 'none' : 'set',
        });
        return viewOf(source);
      });
    },

    /** The lookup runs in the change's transaction: a source deleted meanwhile answers 404 and audits nothing. */
    async update(caller: OrgCaller, id: string, changes: MetricSourceChanges): Promise<MetricSourceView> {
      if (changes.url !== undefined) await checked(changes.url);
      return db.transaction(async (trx) => {
        const source = await lookup(caller, id, trx);
        const token = changes.token;
        found(
          await updateMetricSource(trx, caller.organizationId, source.id, {
            name: changes.name,
            url: changes.url,
            ...(token === undefined ? {} : { token_sealed: token === null ? null : deps.secrets.seal(token, aad(id)) }),
          }),
        );
        await record(trx, caller, 'metric_source.update', audited(source), {
          changes: {
            ...(changes.name !== undefined ? { name: changes.name } : {}),
            ...(changes.url !== undefined ? { url: changes.url } : {}),
            ...(token !== undefined ? { token: token === null ? 'removed' : 'changed' } : {}),
          },
        });
        return viewOf((await findMetricSource(trx, caller.organizationId, source.id)) ?? source);
      });
    },

    delete(caller: OrgCaller, id: string): Promise<void> {
      return db.transaction(async (trx) => {
        const source = await lookup(caller, id, trx);
        found(await deleteMetricSource(trx, caller.organizationId, source.id));
        await record(trx, caller, 'metric_source.delete', audited(source), { url: source.url });
      });
    },

    /** The organization's source by name with its token opened, for a measurement (null when there is none). */
    async opened(organizationId: string, name: string): Promise<OpenedMetricSource | null> {
      const source = await findMetricSourceByName(db, organizationId, name);
      if (!source) return null;
      const token = source.tokenSealed === null ? null : deps.secrets.open(source.tokenSealed, aad(source.id));
      return { name: source.name, kind: source.kind, url: source.url, token };
    },
  };
}
