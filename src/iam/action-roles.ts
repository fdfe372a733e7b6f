import type { ActionRoleTable } from './role-authorizer';

/**
 * The organization-role floor of every action an `organization` route declares (docs/authorization.md shows the
 * matrix). An action missing here is denied. `*` stands for one segment (a slug or an id); resource grants can lift
 * a caller above their organization role for actions on `projects.<slug>`, `clusters.<id>` and `tenants.<id>`.
 */
export const ACTION_ROLES: ActionRoleTable = {
  'org.audit.read': 'admin',
  'org.audit.verify': 'admin',
  'org.diagnostics.run': 'admin',

  // Kubernetes validation (/api/v2/k8s): reading and validating for every member; CRDs are organization config.
  'k8s.schemas.read': 'viewer',
  'k8s.validate': 'viewer',
  'k8s.crds.read': 'viewer',
  'k8s.crds.create': 'admin',
  'k8s.crds.delete': 'admin',

  // Organization and members (/api/v1/organizations/{slug}).
  'org.read': 'viewer',
  'org.update': 'admin',
  'org.delete': 'owner',
  'org.members.read': 'viewer',
  'org.members.update': 'admin',
  'org.members.remove': 'admin',
  // Identity: reset a member's lost MFA (spec: "an organization owner resets MFA").
  'org.members.mfa.reset': 'owner',

  // Invitations: only owners and admins send them (spec, Authentication item 9).
  'org.invitations.read': 'admin',
  'org.invitations.create': 'admin',
  'org.invitations.reissue': 'admin',
  'org.invitations.revoke': 'admin',

  // IAM center.
  'org.teams.read': 'viewer',
  'org.teams.create': 'admin',
  'org.teams.update': 'admin',
  'org.teams.delete': 'admin',
  'org.teams.members.add': 'admin',
  'org.teams.members.remove': 'admin',
  'org.permissions.read': 'admin',
  'org.permissions.create': 'admin',
  'org.permissions.update': 'admin',
  'org.permissions.delete': 'admin',
  'org.iam.self.read': 'viewer',
  'org.iam.read': 'admin',
  'org.iam.audit.read': 'admin',
  // Approval policies gate deployments: every member reads who must approve, admins configure them.
  'org.approval-policies.read': 'viewer',
  'org.approval-policies.create': 'admin',
  'org.approval-policies.update': 'admin',
  'org.approval-policies.delete': 'admin',
  // Service accounts (Enterprise plan) and their tokens: organization credentials, so administration.
  'org.service-accounts.read': 'admin',
  'org.service-accounts.create': 'admin',
  'org.service-accounts.update': 'admin',
  'org.service-accounts.delete': 'admin',
  'org.service-accounts.tokens.read': 'admin',
  'org.service-accounts.tokens.create': 'admin',
  'org.service-accounts.tokens.delete': 'admin',

  // Platform configuration.
  'org.features.read': 'viewer',
  'org.environments.read': 'viewer',
  'org.environments.create': 'admin',
  'org.environments.update': 'admin',
  'org.environments.delete': 'admin',
  'org.environments.reorder': 'admin',
  'org.tenants.read': 'viewer',
  'org.tenants.create': 'admin',
  'org.tenants.update': 'admin',
  'org.tenants.delete': 'admin',

  // Projects (/api/v2/projects): reading for every member, configuration for admins, content changes for members.
  'org.projects.read': 'viewer',
  'org.projects.create': 'admin',
  'projects.*.read': 'viewer',
  'projects.*.update': 'admin',
  'projects.*.archive': 'admin',
  'projects.*.delete': 'admin',
  'projects.*.policy.read': 'viewer',
  'projects.*.policy.update': 'admin',
  'projects.*.environments.read': 'viewer',
  'projects.*.environments.add': 'admin',
  'projects.*.environments.update': 'admin',
  'projects.*.environments.remove': 'admin',
  'projects.*.tenants.read': 'viewer',
  'projects.*.tenants.add': 'admin',
  'tenants.*.read': 'viewer',
  'tenants.*.update': 'admin',
  'tenants.*.remove': 'admin',
  'tenants.*.rollback.preview': 'viewer',
  'tenants.*.rollback': 'member',
  'tenants.*.pin.read': 'viewer',
  'tenants.*.pin.remove': 'admin',
  'projects.*.workloads.read': 'viewer',
  'projects.*.workloads.create': 'member',
  'projects.*.workloads.update': 'member',
  'projects.*.workloads.delete': 'member',
  // Hosted repository: reading (and cloning over /git/r/...) for every member, writes for members.
  'projects.*.files.read': 'viewer',
  'projects.*.files.write': 'member',
  'projects.*.git.read': 'viewer',
  'projects.*.delivery.preview': 'viewer',
  'projects.*.delivery.generate': 'member',
  'projects.*.compare': 'viewer',
  'projects.*.images.preview': 'viewer',
  'projects.*.images.update': 'member',
  'projects.*.releases.read': 'viewer',
  'projects.*.releases.create': 'member',
  'projects.*.releases.approve': 'member',
  'projects.*.releases.deploy': 'member',
  'projects.*.releases.cancel': 'member',
  'projects.*.pins.read': 'viewer',
  'projects.*.promotions.read': 'viewer',
  'projects.*.promotions.create': 'member',
  'projects.*.promotions.approve': 'member',
  'projects.*.promotions.cancel': 'member',
  // The external remote: its URL is visible to members, changing it (and its token) is configuration.
  'projects.*.remote.read': 'viewer',
  'projects.*.remote.update': 'admin',
  // Project API keys: credentials of the project, so project administration.
  'projects.*.api-keys.read': 'admin',
  'projects.*.api-keys.create': 'admin',
  'projects.*.api-keys.delete': 'admin',

  // Policies (/api/v2/policies): the project slug is in the body, so these are organization actions (project grants
  // do not lift them). Evaluating reads only.
  'org.policies.read': 'viewer',
  'org.policies.evaluate': 'viewer',
  'org.policies.create': 'admin',
  'org.policies.update': 'admin',
  'org.policies.delete': 'admin',

  // Organization registry (/v2/*, OCI distribution): pulling for every member, pushing and deleting for members.
  'org.registry.pull': 'viewer',
  'org.registry.push': 'member',
  'org.registry.delete': 'member',
  // Chart catalog (/api/v2/org-charts): reading for every member, deleting a chart or a version for members.
  'org.charts.read': 'viewer',
  'org.charts.delete': 'member',
  // Kustomize bases and manifest bundles (/api/v2/org-kustomize-bases, /api/v2/org-manifest-bundles): reading for every
  // member, uploading and deleting versions for members.
  'org.kustomize-bases.read': 'viewer',
  'org.kustomize-bases.push': 'member',
  'org.kustomize-bases.delete': 'member',
  'org.manifest-bundles.read': 'viewer',
  'org.manifest-bundles.push': 'member',
  'org.manifest-bundles.delete': 'member',

  // Outbound notifications. Project webhooks and the organization's channels are configuration (admins; members
  // read them, the delivery log included); a test send is a change too (it reaches the target).
  'projects.*.webhooks.read': 'member',
  'projects.*.webhooks.create': 'admin',
  'projects.*.webhooks.update': 'admin',
  'projects.*.webhooks.delete': 'admin',
  'projects.*.webhooks.test': 'admin',
  // Inbound webhook settings hold the project's shared secret: project administration. Sync status reads for viewers.
  'projects.*.webhook-settings.read': 'admin',
  'projects.*.webhook-settings.update': 'admin',
  'projects.*.webhook-settings.delete': 'admin',
  'projects.*.deployment-status.read': 'viewer',
  // What runs where is read by every viewer; the soak time gates promotions: project administration.
  'projects.*.deployments.read': 'viewer',
  'projects.*.deployments.soak.update': 'admin',
  // The continuous-delivery controller's token authenticates the whole organization's sync reports.
  'org.cdcontroller-token.read': 'admin',
  'org.cdcontroller-token.rotate': 'admin',
  'org.notifications.channels.read': 'member',
  'org.notifications.channels.create': 'admin',
  'org.notifications.channels.update': 'admin',
  'org.notifications.channels.delete': 'admin',
  'org.notifications.channels.test': 'admin',
  // The organization's own SMTP relay: admins and owners only, reading included (it names the relay and its user).
  'org.notifications.smtp.read': 'admin',
  'org.notifications.smtp.update': 'admin',
  'org.notifications.smtp.delete': 'admin',
  'org.notifications.smtp.test': 'admin',
  // Each member's own inbox and preferences.
  'org.notifications.self': 'viewer',
  // Escalation policies (Pro and Enterprise): configuration; acknowledging or resolving an incident is for members.
  'org.notifications.escalations.read': 'member',
  'org.notifications.escalations.create': 'admin',
  'org.notifications.escalations.update': 'admin',
  'org.notifications.escalations.delete': 'admin',
  'org.notifications.incidents.read': 'member',
  'org.notifications.incidents.acknowledge': 'member',
  'org.notifications.incidents.resolve': 'member',
  // Clusters and agent hub (/api/v2/clusters): reading for every member; registering, changing and the agent's
  // credentials for admins; commands to the agent for members, one action per command so service-account patterns
  // such as `clusters.*.commands.sync` allow exactly that command (grants on `clusters.<id>` lift a caller).
  'org.clusters.read': 'viewer',
  'org.clusters.create': 'admin',
  'clusters.*.read': 'viewer',
  'clusters.*.update': 'admin',
  'clusters.*.delete': 'admin',
  'clusters.*.join-token.create': 'admin',
  'clusters.*.credential.rotate': 'admin',
  'clusters.*.drift.read': 'viewer',
  'clusters.*.commands.read': 'viewer',
  'clusters.*.commands.sync': 'member',
  'clusters.*.commands.refresh': 'member',
  'clusters.*.commands.restart': 'member',
  // The template `clusters.{clusterId}.commands.{command}` before its body names a command (refused by the schema).
  'clusters.*.commands.*': 'member',
  // Agent bindings: which project, tenants and environments a cluster serves.
  'org.agent-bindings.read': 'viewer',
  'org.agent-bindings.create': 'admin',
  'org.agent-bindings.delete': 'admin',

  // Freeze windows (issue 11): every member sees what is frozen; admins and owners manage windows and stop the line.
  'org.freezes.read': 'viewer',
  'org.freezes.manage': 'admin',
  'org.freezes.stop-the-line': 'admin',
  'projects.*.freezes.read': 'viewer',
  'projects.*.freezes.manage': 'admin',
  // Break-glass: any member may ask to open a session, the organization's allowed roles (default owner, admin)
  // decide in the service; members read sessions; closing is for the holder or an admin (checked in the service).
  'org.break-glass.open': 'viewer',
  'org.break-glass.read': 'member',
  'org.break-glass.close': 'viewer',
  'org.break-glass.settings.read': 'admin',
  'org.break-glass.settings.update': 'owner',
};
