import { useState } from 'react';
import { useSession } from '../../api/session';
import { ProjectChoice } from '../../components/project-choice';
import { EffectivePermissionsView } from './effective-permissions';
import { ControllerToken, PlanFeatures, WebhookSecret } from './integrations';
import { ApiKeys, ServiceAccounts } from './machine-access';
import { Invitations, Members } from './members';
import { Grants } from './grants';
import { SmtpSettingsForm } from './smtp-settings';
import { Teams } from './teams';

/** Organization settings: people and their access, machine access, integrations' secrets, and the plan. */
export function SettingsView() {
  const session = useSession();
  const [project, setProject] = useState('');
  const org = session.me?.organization;
  if (!org) return null;
  return (
    <main>
      <h1>Settings of {org.name}</h1>
      <Members slug={org.slug} />
      <Invitations slug={org.slug} />
      <Teams />
      <Grants orgSlug={org.slug} />
      <EffectivePermissionsView slug={org.slug} myId={session.me?.user.id ?? ''} />
      <section aria-labelledby="project-access-heading">
        <h2 id="project-access-heading">Project API keys and image-update webhook</h2>
        <ProjectChoice name="settings-project" value={project} onChange={setProject} />
        {project && (
          <>
            <h3>API keys</h3>
            <ApiKeys slug={project} />
            <h3>Image-update webhook</h3>
            <WebhookSecret slug={project} />
          </>
        )}
      </section>
      <ServiceAccounts />
      <SmtpSettingsForm />
      <ControllerToken />
      <PlanFeatures />
    </main>
  );
}
