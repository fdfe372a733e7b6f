import type { Project } from './project-repository';

/** Where a project's hosted repository is cloned from: Git over HTTP (api/git-http.ts) under the public URL. */
export function gitUrlOf(publicUrl: string, project: Pick<Project, 'organizationSlug' | 'slug'>): string {
  return `${publicUrl}/git/r/${project.organizationSlug}/${project.slug}.git`;
}
