import { useParams, useSearchParams } from 'react-router';
import { messageOf } from '../../api/client';
import { useProjectActivity, useProjectLive, useProjectParts } from '../../api/project-queries';
import { ErrorNote } from '../../components/form';
import { ProjectNav } from '../../components/project-nav';
import { TimeControl } from '../history/time-control';
import { ProjectEditors } from './project-editors';
import { ProjectItems } from './project-items';
import { PipelinePicture } from './pipeline-picture';
import { ProjectMatrix } from './project-matrix';

export function ProjectView() {
  const { slug = '' } = useParams();
  const parts = useProjectParts(slug);
  const activity = useProjectActivity(slug);
  const [search, setSearch] = useSearchParams();
  const at = search.get('at');
  const live = useProjectLive(slug, at);
  const failed = [parts.project, parts.environments, parts.tenants, parts.workloads].find((q) => q.error);
  const ready = parts.environments.data && parts.tenants.data && parts.workloads.data;
  // One reading for the picture and the matrix: the project's parts with what is in force, or as it was at `at`.
  const matrix = {
    environments: parts.environments.data?.items ?? [],
    tenants: parts.tenants.data?.items ?? [],
    workloads: parts.workloads.data?.items ?? [],
    activity: at
      ? { pins: [], freezes: [], releases: [], promotions: [], deployments: live.deployments.data ?? [], at }
      : {
          pins: activity.pins.data?.items ?? [],
          freezes: activity.freezes.data?.items ?? [],
          releases: activity.releases.data?.items ?? [],
          promotions: live.promotions.data?.items ?? [],
          deployments: live.deployments.data ?? [],
          rollouts: activity.rollouts.data?.items ?? [],
        },
  };
  return (
    <main>
      <h1>{parts.project.data?.name ?? slug}</h1>
      <ProjectNav slug={slug} />
      <ErrorNote error={failed ? messageOf(failed.error) : null} />
      <h2>Versions</h2>
      <p className="muted">
        {at
          ? 'The version each cell had been committed at and the one running then (as the controller reported it).'
          : 'The version each cell is configured for and the one running (as the controller reports it), with pins, freezes in force and the release or promotion in flight.'}
      </p>
      {parts.project.data && (
        <TimeControl
          slug={slug}
          at={at}
          earliest={parts.project.data.createdAt}
          marks={(activity.releases.data?.items ?? []).map((r) => r.createdAt)}
          onChange={(next) => setSearch(next ? { at: next } : {})}
        />
      )}
      {ready && <PipelinePicture slug={slug} {...matrix} />}
      {ready && <ProjectMatrix {...matrix} />}
      {ready && (
        <ProjectItems
          slug={slug}
          environments={parts.environments.data!.items}
          tenants={parts.tenants.data!.items}
          workloads={parts.workloads.data!.items}
        />
      )}
      <ProjectEditors slug={slug} />
    </main>
  );
}
