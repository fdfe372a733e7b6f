import { InvalidInput } from '../errors';

/** Shape A (spec "Inbound webhooks"): a registry push; the timestamp is the signed header. */
export interface ShapeA {
  shape: 'A';
  repository: string;
  tag: string;
  registry: string;
  digest: string;
}

/** Shape B: one workload of one project, its environments and tenants (`*` = all), the timestamp in the body. */
export interface ShapeB {
  shape: 'B';
  image: string;
  tag: string;
  digest: string;
  project: string;
  workload: string;
  environments: string[];
  tenants: string[];
  timestamp: string;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;
/** An OCI tag (distribution spec). */
const TAG = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;
/** ISO 8601 in UTC, as the spec asks (a `Z` zone, optional fraction). */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;
const MAX_LIST = 100;

type Json = Record<string, unknown>;

function text(body: Json, field: string, max = 512): string {
  const value = body[field];
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    throw new InvalidInput(`${field} is required (a string of 1 to ${max} characters)`);
  }
  return value;
}

function names(body: Json, field: string, allowStar: boolean): string[] {
  const value = body[field];
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_LIST) {
    throw new InvalidInput(`${field} is required (a list of 1 to ${MAX_LIST} names)`);
  }
  for (const v of value) {
    if (typeof v !== 'string' || !(NAME.test(v) || (allowStar && v === '*'))) {
      throw new InvalidInput(`${field} holds an invalid name`);
    }
  }
  return [...new Set(value as string[])];
}

function checked<T extends { tag: string; digest: string }>(payload: T): T {
  if (!TAG.test(payload.tag)) throw new InvalidInput('tag is not a valid image tag');
  if (!DIGEST.test(payload.digest)) throw new InvalidInput('digest must be sha256:<64 hex digits>');
  return payload;
}

/** A body with shape A's fields and not shape B's. */
export function isShapeABody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'repository' in body && !('project' in body);
}

/** The routing field of a body before its signature is checked: whose secrets to try. Nothing else is read. */
export function routingOf(body: unknown, shape: 'A' | 'B'): { repositories: string[] } | { project: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidInput('invalid request body');
  }
  const json = body as Json;
  if (shape === 'B') return { project: text(json, 'project', 63) };
  const repository = text(json, 'repository');
  const registry = text(json, 'registry', 253);
  return { repositories: [...new Set([`${registry}/${repository}`, repository])] };
}

export function parseShapeA(body: Json): ShapeA {
  return checked({
    shape: 'A',
    repository: text(body, 'repository'),
    tag: text(body, 'tag', 128),
    registry: text(body, 'registry', 253),
    digest: text(body, 'digest', 71),
  });
}

export function parseShapeB(body: Json): ShapeB {
  const timestamp = text(body, 'timestamp', 40);
  if (!ISO_UTC.test(timestamp) || Number.isNaN(Date.parse(timestamp))) {
    throw new InvalidInput('timestamp must be ISO 8601 in UTC (for example 2026-01-02T03:04:05Z)');
  }
  return checked({
    shape: 'B',
    image: text(body, 'image'),
    tag: text(body, 'tag', 128),
    digest: text(body, 'digest', 71),
    project: text(body, 'project', 63),
    workload: text(body, 'workload', 63),
    environments: names(body, 'environments', false),
    tenants: names(body, 'tenants', true),
    timestamp,
  });
}

/** Shape B's image names the workload's repository: bare, or with the tag or digest it carries. */
export function imageMatches(image: string, repository: string): boolean {
  return image === repository || image.startsWith(`${repository}:`) || image.startsWith(`${repository}@`);
}
