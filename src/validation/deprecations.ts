import path from 'node:path';
import type { DeprecationEntry } from './types';
import { compareMinor } from './versions';
import { curatedList, optionalString, readCuratedYaml, requiredString } from './registry/curated-file';
import type { VersionSchemas } from './registry/version-schemas';

/** One row of schemas/k8s/deprecations.yaml. */
export interface DeprecationRecord {
  apiVersion: string;
  kind: string;
  deprecatedIn: string;
  removedIn?: string;
  replacement?: string;
  replacementAvailableIn?: string;
  note?: string;
}

const MINOR = /^1\.\d+$/;

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}

/** GA before beta before alpha, then the higher number: v2 > v1 > v1beta3 > v1beta1 > v1alpha1. */
function stabilityRank(version: string): number {
  const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(version);
  if (!m) return 0;
  const level = m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1;
  return level * 1e6 + Number(m[1]) * 1e3 + Number(m[3] ?? 0);
}

export class Deprecations {
  private readonly byKey = new Map<string, DeprecationRecord>();

  constructor(readonly records: readonly DeprecationRecord[]) {
    for (const record of records) this.byKey.set(`${record.apiVersion}\n${record.kind}`, record);
  }

  static load(dir: string): Deprecations {
    const file = path.join(dir, 'deprecations.yaml');
    const list = curatedList(readCuratedYaml(file), 'deprecations', file);
    return new Deprecations(
      list.map((entry, i): DeprecationRecord => {
        const where = `${file} deprecations[${i}]`;
        const record: DeprecationRecord = {
          apiVersion: requiredString(entry, 'apiVersion', where),
          kind: requiredString(entry, 'kind', where),
          deprecatedIn: requiredString(entry, 'deprecatedIn', where),
          removedIn: optionalString(entry, 'removedIn', where),
          replacement: optionalString(entry, 'replacement', where),
          replacementAvailableIn: optionalString(entry, 'replacementAvailableIn', where),
          note: optionalString(entry, 'note', where),
        };
        for (const v of [record.deprecatedIn, record.removedIn, record.replacementAvailableIn]) {
          if (v !== undefined && !MINOR.test(v)) throw new Error(`${where}: "${v}" is not a minor version like 1.25`);
        }
        return record;
      }),
    );
  }

  find(apiVersion: string, kind: string): DeprecationRecord | undefined {
    return this.byKey.get(`${apiVersion}\n${kind}`);
  }

  isRemoved(record: DeprecationRecord, version: string): boolean {
    return record.removedIn !== undefined && compareMinor(record.removedIn, version) <= 0;
  }

  isDeprecated(record: DeprecationRecord, version: string): boolean {
    return compareMinor(record.deprecatedIn, version) <= 0;
  }

  /**
   * The API version to migrate to, as the target release serves it: the most stable undeprecated version
   * of the kind in the replacement's group (flowcontrol v1beta1 at 1.29 -> v1, at 1.26 -> v1beta3), else
   * the curated replacement, followed past removed ones (extensions/v1beta1 PodSecurityPolicy -> none).
   */
  replacementFor(record: DeprecationRecord, schemas: VersionSchemas): string {
    const group = groupOf(record.replacement ?? record.apiVersion);
    const candidates = schemas
      .kindsNamed(record.kind)
      .filter((k) => k.group === group && k.apiVersion !== record.apiVersion)
      .filter((k) => {
        const own = this.find(k.apiVersion, record.kind);
        return !own || !this.isDeprecated(own, schemas.version);
      })
      .sort((a, b) => stabilityRank(b.version) - stabilityRank(a.version));
    if (candidates[0]) return candidates[0].apiVersion;
    let replacement = record.replacement ?? '';
    for (let hops = 0; replacement && hops < 10; hops++) {
      const next = this.find(replacement, record.kind);
      if (!next || !this.isRemoved(next, schemas.version)) break;
      replacement = next.replacement ?? '';
    }
    return replacement;
  }

  message(record: DeprecationRecord, schemas: VersionSchemas): string {
    const replacement = this.replacementFor(record, schemas);
    const subject = `${record.apiVersion} ${record.kind}`;
    const state = this.isRemoved(record, schemas.version)
      ? `is no longer served: removed in Kubernetes ${record.removedIn ?? ''} (deprecated since ${record.deprecatedIn})`
      : `is deprecated since Kubernetes ${record.deprecatedIn}` +
        (record.removedIn ? ` and will be removed in ${record.removedIn}` : ', with no removal scheduled');
    const advice = replacement ? `; use ${replacement}` : record.note ? '' : '; there is no replacement API';
    return `${subject} ${state}${advice}${record.note ? `; ${record.note}` : ''}`;
  }

  /** The API versions deprecated or removed as of `version`, as the deprecations route lists them. */
  listFor(schemas: VersionSchemas): DeprecationEntry[] {
    return this.records
      .filter((r) => this.isDeprecated(r, schemas.version))
      .sort(
        (a, b) =>
          compareMinor(a.removedIn ?? '9.0', b.removedIn ?? '9.0') ||
          a.apiVersion.localeCompare(b.apiVersion) ||
          a.kind.localeCompare(b.kind),
      )
      .map((r) => ({
        kind: r.kind,
        deprecatedApiVersion: r.apiVersion,
        replacementApiVersion: this.replacementFor(r, schemas),
        removedInVersion: r.removedIn ?? '',
        message: this.message(r, schemas),
      }));
  }
}
