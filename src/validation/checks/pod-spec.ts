import type { PathSegment } from '../field-path';

/** Where each built-in workload kind keeps its pod spec (best practices and the policy rules read containers there). */
export const POD_SPEC_PATHS: Readonly<Record<string, readonly PathSegment[]>> = {
  Pod: ['spec'],
  PodTemplate: ['template', 'spec'],
  Deployment: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  ReplicationController: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};
