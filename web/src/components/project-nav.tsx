import { NavLink } from 'react-router';

/** The project's views, one link each. */
export function ProjectNav({ slug }: { slug: string }) {
  const base = `/projects/${slug}`;
  return (
    <nav aria-label="Project" className="tabs">
      <NavLink to={base} end>
        Overview
      </NavLink>
      <NavLink to={`${base}/releases`}>Releases</NavLink>
      <NavLink to={`${base}/compare`}>Compare</NavLink>
      <NavLink to={`${base}/bulk-update`}>Bulk update</NavLink>
      <NavLink to={`${base}/promotions`}>Promotions</NavLink>
      <NavLink to={`${base}/rollouts`}>Rollouts</NavLink>
      <NavLink to={`${base}/rollback`}>Rollback and pins</NavLink>
      <NavLink to={`${base}/changes`}>Changes</NavLink>
      <NavLink to={`${base}/metrics`}>Metrics</NavLink>
      <NavLink to={`${base}/watch`}>Automation</NavLink>
    </nav>
  );
}
