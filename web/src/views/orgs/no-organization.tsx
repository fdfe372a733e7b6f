import type { FormEvent } from 'react';
import { api, ok } from '../../api/client';
import { useSession } from '../../api/session';
import { fieldErrors } from '../../components/field-errors';
import { ErrorNote, Field, Submit, formValues } from '../../components/form';
import { useAction } from '../../components/use-action';

/**
 * What a signed-in person without an active organization sees instead of a dead end: the organizations they belong to
 * are in the switcher above; anyone can create one (and owns it); joining a team's is by its invitation.
 */
export function NoOrganization() {
  const session = useSession();
  const action = useAction([['me']]);
  const errors = fieldErrors(action.error, { slug: 'slug', name: 'name' });
  const me = session.me;
  if (!me) return null;
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { slug = '', name = '' } = formValues(event.currentTarget);
    await action.run(async () => {
      const made = await ok(api.POST('/api/v1/organizations', { body: { slug, name: name || slug } }));
      await session.switchOrganization(made.id);
    });
  }
  const member = me.memberships.length > 0;
  return (
    <main>
      <h1>{member ? 'Choose an organization' : 'Create your organization'}</h1>
      {member && <p>Pick one of your organizations in the switcher above to see its projects, or create another.</p>}
      <form onSubmit={submit} aria-label="Create an organization" className="editor">
        <Field name="slug" label="Organization slug" isRequired placeholder="acme" error={errors.of('slug')} />
        <Field name="name" label="Organization name" placeholder="Acme Inc." error={errors.of('name')} />
        <ErrorNote error={errors.form} />
        <Submit pending={action.pending}>Create organization</Submit>
      </form>
      <p>
        Joining your team&apos;s organization instead? Ask one of its owners or admins to invite <b>{me.user.email}</b>:
        the invitation&apos;s link adds you to it.
      </p>
    </main>
  );
}
