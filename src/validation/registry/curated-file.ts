import fs from 'node:fs';
import { parseYaml } from '../../parse/bounded-parse';
import { isRecord, type JsonRecord } from '../json';

/**
 * Reads one of the hand-curated YAML files under schemas/k8s (trusted input). js-yaml, already loaded for
 * manifests, rather than `yaml`: loading and running `yaml` here was a third of the CLI's start-up.
 */
export function readCuratedYaml(file: string): JsonRecord {
  const doc: unknown = parseYaml(fs.readFileSync(file, 'utf8'), file);
  if (!isRecord(doc)) throw new Error(`${file}: expected a mapping at the top`);
  return doc;
}

export function curatedList(doc: JsonRecord, key: string, file: string): JsonRecord[] {
  const list = doc[key];
  if (!Array.isArray(list) || !list.every(isRecord)) throw new Error(`${file}: "${key}" must be a list of mappings`);
  return list;
}

export function optionalString(entry: JsonRecord, key: string, where: string): string | undefined {
  const value = entry[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new Error(`${where}: "${key}" must be a string`);
  return value;
}

export function requiredString(entry: JsonRecord, key: string, where: string): string {
  const value = optionalString(entry, key, where);
  if (value === undefined || value === '') throw new Error(`${where}: "${key}" is required`);
  return value;
}

export function optionalStringList(entry: JsonRecord, key: string, where: string): string[] | undefined {
  const value = entry[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw new Error(`${where}: "${key}" must be a list of strings`);
  }
  return value;
}
