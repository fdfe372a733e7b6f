import { useAllProjects } from '../api/org-queries';
import { Choice } from './choice';

/** Picks one of the organization's projects by slug ("Choose a project" until one is picked). */
export function ProjectChoice(props: { name: string; value: string; onChange: (slug: string) => void }) {
  const projects = useAllProjects();
  return (
    <Choice
      label="Project"
      name={props.name}
      value={props.value}
      any="Choose a project"
      onChange={props.onChange}
      options={(projects.data?.items ?? []).map((p) => ({ value: p.slug, label: p.name }))}
    />
  );
}
