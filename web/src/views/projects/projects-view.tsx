import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, messageOf, ok } from '../../api/client';
import { ErrorNote, Field, Submit, formValues } from '../../components/form';
import { useAction } from '../../components/use-action';

export function ProjectsView() {
  const navigate = useNavigate();
  const projects = useQuery({
    queryKey: ['projects'],
    queryFn: () => ok(api.GET('/api/v2/projects', { params: { query: {} } })),
  });
  const create = useAction([['projects']]);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { slug = '', name = '' } = formValues(event.currentTarget);
    const made = await create.run(() => ok(api.POST('/api/v2/projects', { body: { slug, name } })));
    if (made) void navigate(`/projects/${made.slug}`);
  }
  return (
    <main>
      <h1>Projects</h1>
      <ErrorNote error={projects.error ? messageOf(projects.error) : null} />
      {projects.data && projects.data.items.length === 0 && <p>No projects yet: create the first one below.</p>}
      <ul className="cards">
        {projects.data?.items.map((p) => (
          <li key={p.slug} className="card">
            <Link to={`/projects/${p.slug}`}>{p.name}</Link>
            <span className="muted"> {p.slug}</span>
            {p.description && <p>{p.description}</p>}
          </li>
        ))}
      </ul>
      <section aria-labelledby="new-project">
        <h2 id="new-project">New project</h2>
        <form onSubmit={submit} className="inline-form" aria-label="New project">
          <Field name="slug" label="Slug" isRequired placeholder="shop" />
          <Field name="name" label="Name" isRequired placeholder="Shop" />
          <Submit pending={create.pending}>Create project</Submit>
        </form>
        <ErrorNote error={create.error} />
      </section>
    </main>
  );
}
