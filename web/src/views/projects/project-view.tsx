import { useParams } from 'react-router';
import { messageOf } from '../../api/client';
import { useProjectActivity, useProjectLive, useProjectParts } from '../../api/project-queries';
import { ErrorNote } from '../../components/form';
import { ProjectNav } from '../../components/project-nav';
import { ProjectEditors } from './project-editors';
import { ProjectItems } from './project-items';
import { ProjectMatrix } from './project-matrix';

export function ProjectView() {
  const { slug = '' } = useParams();
  const parts = useProjectParts(slug);
  const activity = useProjectActivity(slug);
  const live = useProjectLive(slug);
  const failed = [parts.project, parts.environments, parts.tenants, parts.workloads].find((q) => q.error);
  const ready = parts.environments.data && parts.tenants.data && parts.workloads.data;
  return (
    <main>
      <h1>{parts.project.data?.name ?? slug}</h1>
      <ProjectNav slug={slug} />
      <ErrorNote error={failed ? messageOf(failed.error) : null} />
      <h2>Versions</h2>
      <p className="muted">
        The version each cell is configured for and the one running (as the controller reports it), with pins, freezes
        in force and the release or promotion in flight.
      </p>
      {ready && (
        <ProjectMatrix
          environments={parts.environments.data!.items}
          tenants={parts.tenants.data!.items}
          workloads={parts.workloads.data!.items}
          activity={{
            pins: activity.pins.data?.items ?? [],
            freezes: activity.freezes.data?.items ?? [],
            releases: activity.releases.data?.items ?? [],
            promotions: live.promotions.data?.items ?? [],
            deployments: live.deployments.data ?? [],
          }}
        />
      )}
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
