import { InvalidInput } from '../errors';

export const PROJECT_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** Workload names are shorter than other slugs so every Argo CD Application name fits 253 characters. */
export const WORKLOAD_NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$/;

export class ProjectArchived extends InvalidInput {
  constructor() {
    super('the project is archived');
  }
}

export function slugKey(raw: string): string | null {
  return PROJECT_SLUG_PATTERN.test(raw) ? raw : null;
}
