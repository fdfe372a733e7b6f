import fs from 'node:fs';
import path from 'node:path';
import { ROOT, sourceFiles, tablesIn } from './source-scan';

/**
 * Table ownership (issue 17): only a module's own files query its tables; other modules go through that module's
 * repository functions. Every table a migration creates must name its owner here. A query that needs another module's
 * rows joins a builder that module exports (a derived table or subquery, docs/CONTRIBUTING-SPINE.md).
 */
const OWNERS: Record<string, string> = {
  agent_bindings: 'src/clusters',
  approval_policies: 'src/approval-policies',
  audit_log: 'src/audit',
  break_glass_sessions: 'src/break-glass',
  break_glass_settings: 'src/break-glass',
  catalog_artifacts: 'src/catalog',
  cdcontroller_tokens: 'src/webhooks',
  cluster_agent_credentials: 'src/clusters',
  cluster_commands: 'src/clusters',
  cluster_drift: 'src/clusters',
  cluster_join_tokens: 'src/clusters',
  clusters: 'src/clusters',
  custom_resource_definitions: 'src/crds',
  deployed_target_events: 'src/deployments',
  deployed_targets: 'src/deployments',
  deployment_revisions: 'src/deployments',
  deployment_soak_times: 'src/deployments',
  deployment_statuses: 'src/webhooks',
  domain_events: 'src/events',
  email_tokens: 'src/identity',
  escalation_incidents: 'src/notifications',
  escalation_policies: 'src/notifications',
  freeze_switches: 'src/freezes',
  freeze_windows: 'src/freezes',
  git_commits: 'src/gitops',
  git_remote_pushes: 'src/gitops',
  image_update_marks: 'src/webhooks',
  invitations: 'src/invitations',
  login_failures: 'src/rate-limit',
  memberships: 'src/orgs',
  mfa_challenges: 'src/identity',
  mfa_recovery_codes: 'src/identity',
  notification_channels: 'src/notifications',
  notification_cursors: 'src/notifications',
  notification_deliveries: 'src/notifications',
  notification_preferences: 'src/notifications',
  notification_sends: 'src/notifications',
  notifications: 'src/notifications',
  oauth_identities: 'src/identity',
  oauth_states: 'src/identity',
  oci_manifests: 'src/registry',
  oci_repositories: 'src/registry',
  oci_repository_blobs: 'src/registry',
  oci_tags: 'src/registry',
  oci_uploads: 'src/registry',
  organization_smtp_settings: 'src/notifications',
  organizations: 'src/orgs',
  org_environments: 'src/platform-config',
  org_tenants: 'src/platform-config',
  policies: 'src/policies',
  project_api_keys: 'src/machine-access',
  project_environments: 'src/projects',
  project_policies: 'src/projects',
  project_remotes: 'src/gitops',
  project_tenants: 'src/projects',
  projects: 'src/projects',
  promotion_approvals: 'src/promotions',
  promotions: 'src/promotions',
  rate_limit_counters: 'src/rate-limit',
  refresh_tokens: 'src/identity',
  release_approvals: 'src/releases',
  releases: 'src/releases',
  resource_grants: 'src/permissions',
  service_account_tokens: 'src/machine-access',
  service_accounts: 'src/machine-access',
  session_families: 'src/identity',
  target_pins: 'src/pins',
  team_members: 'src/teams',
  teams: 'src/teams',
  user_mfa: 'src/identity',
  users: 'src/users',
  webhook_requests: 'src/webhooks',
  webhook_settings: 'src/webhooks',
  workloads: 'src/projects',
};

function migratedTables(): string[] {
  const text = sourceFiles('migrations')
    .map((f) => fs.readFileSync(path.join(ROOT, f), 'utf8'))
    .join('\n');
  const names = [...text.matchAll(/createTable\('([a-z_]+)'|CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)/g)];
  return [...new Set(names.map((m) => (m[1] ?? m[2])!))].sort();
}

function ownerOf(file: string): string {
  const parts = file.split(path.sep);
  return parts[0] === 'src' ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

describe('table ownership', () => {
  it('names the owner of every table the migrations create', () => {
    expect(migratedTables().filter((t) => !(t in OWNERS))).toEqual([]);
  });

  it("finds no query of another module's table", () => {
    const crossings: string[] = [];
    for (const file of ['src', 'api', 'activities', 'workflows', 'scripts'].flatMap(sourceFiles)) {
      for (const table of tablesIn(fs.readFileSync(path.join(ROOT, file), 'utf8'), OWNERS)) {
        const owner = OWNERS[table];
        if (owner && owner !== ownerOf(file)) crossings.push(`${file} -> ${table}`);
      }
    }
    expect(crossings).toEqual([]);
  });
});
