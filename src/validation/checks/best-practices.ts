import { formatPath, valueAt, type PathSegment } from '../field-path';
import { arrayField, isRecord, recordField, stringField } from '../json';
import type { ValidationResult } from '../types';
import { POD_SPEC_PATHS } from './pod-spec';
import { ownValue } from '../../parse/own-property';

/** Run-to-completion pods are not probed for liveness or readiness as a rule. */
const NO_PROBES_EXPECTED = new Set(['Job', 'CronJob', 'PodTemplate']);

/** The tag of an image reference, '' when none; a digest pins the image whatever the tag. */
function imageTag(image: string): { tag: string; pinned: boolean } {
  if (image.includes('@')) return { tag: '', pinned: true };
  const lastSlash = image.lastIndexOf('/');
  const colon = image.indexOf(':', lastSlash + 1);
  return { tag: colon === -1 ? '' : image.slice(colon + 1), pinned: false };
}

/**
 * Resource-constraint best practices for built-in workloads (info, never errors): a pinned image tag,
 * resource requests and limits on every container, liveness and readiness probes on long-running ones.
 */
export function bestPracticeResults(object: unknown, kind: string, resource: string): ValidationResult[] {
  const specPath = ownValue(POD_SPEC_PATHS, kind);
  const podSpec = specPath && valueAt(object, specPath);
  if (!specPath || !isRecord(podSpec)) return [];
  const results: ValidationResult[] = [];
  const info = (segments: PathSegment[], message: string): void => {
    results.push({ severity: 'info', message, path: formatPath(segments), resource });
  };
  for (const list of ['initContainers', 'containers'] as const) {
    (arrayField(podSpec, list) ?? []).forEach((container, i) => {
      if (!isRecord(container)) return;
      const at: PathSegment[] = [...specPath, list, i];
      const name = stringField(container, 'name') ?? `#${i}`;
      const image = stringField(container, 'image');
      if (image) {
        const { tag, pinned } = imageTag(image);
        if (!pinned && tag === '')
          info([...at, 'image'], `image "${image}" has no tag, so it means "latest"; pin a version`);
        if (!pinned && tag === 'latest')
          info([...at, 'image'], `image "${image}" uses the "latest" tag; pin a version`);
      }
      const resources = recordField(container, 'resources');
      for (const part of ['requests', 'limits'] as const) {
        if (!resources || !isRecord(resources[part]) || Object.keys(resources[part]).length === 0) {
          info([...at, 'resources', part], `container "${name}" sets no resource ${part}`);
        }
      }
      if (list === 'containers' && !NO_PROBES_EXPECTED.has(kind)) {
        for (const probe of ['livenessProbe', 'readinessProbe'] as const) {
          if (!isRecord(container[probe])) info([...at, probe], `container "${name}" has no ${probe}`);
        }
      }
    });
  }
  return results;
}
