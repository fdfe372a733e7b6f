import type { DomainModule } from '../runtime/domain-module';
import { provide } from '../runtime/service-provider';
import { createIamViews, type IamViews } from './iam-views';
import { createCallerScope, type CallerScope } from './caller-scope';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** Effective permissions, access overview and the IAM audit report. */
    iamViews: IamViews;
    /** The caller's organization and its projects by slug, for Git over HTTP and the registry (src/views). */
    callerScope: CallerScope;
  }
}

/** What src/views plugs into the platform (src/runtime/domain-module.ts). */
export const viewsModule = {
  name: 'views',
  tables: [],
  services: {
    iamViews: provide(['authorization'], (deps) => createIamViews({ db: deps.db, authorization: deps.authorization })),
    callerScope: provide([], (core) => createCallerScope(core.db)),
  },
  actions: {
    'org.iam.self.read': 'viewer',
    'org.iam.read': 'admin',
    'org.iam.audit.read': 'admin',
  },
} satisfies DomainModule;
