import { useState } from 'react';
import { ProjectChoice } from '../../components/project-choice';
import { Inbox } from './inbox';
import { Escalations } from './incidents';
import { PreferencesForm } from './preferences-form';
import { ProjectChannels } from './project-channels';

/** Notifications: the inbox, personal preferences, a project's channels with their logs, escalations. */
export function NotificationsView() {
  const [slug, setSlug] = useState('');
  return (
    <main>
      <h1>Notifications</h1>
      <Inbox />
      <PreferencesForm />
      <section aria-labelledby="channels-heading">
        <h2 id="channels-heading">Project channels</h2>
        <ProjectChoice name="project" value={slug} onChange={setSlug} />
        {slug && <ProjectChannels slug={slug} />}
      </section>
      <Escalations />
    </main>
  );
}
