import type { DomainModule } from '../runtime/domain-module';

/** What src/crds plugs into the platform (src/runtime/domain-module.ts). */
export const crdsModule = {
  name: 'crds',
  tables: ['custom_resource_definitions'],
  actions: {
    // Kubernetes validation (/api/v2/k8s): reading and validating for every member; CRDs are organization config.
    'k8s.schemas.read': 'viewer',
    'k8s.validate': 'viewer',
    'k8s.crds.read': 'viewer',
    'k8s.crds.create': 'admin',
    'k8s.crds.delete': 'admin',
  },
} satisfies DomainModule;
