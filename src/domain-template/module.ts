import type { DomainModule } from '../runtime/domain-module';
import { exampleRoutes } from './example-routes';
import { createExampleService } from './example-service';

/**
 * The skeleton of a new domain: `npm run new-domain -- <name>` copies this folder to src/<name> and adds the module
 * to src/runtime/modules.ts. Its tables come with a migration (migrations/README.md); its actions name their role
 * floor here; workflows go to workflows/ and are listed here and in workflows/index.ts.
 */
export const exampleModule = {
  name: 'domain-template',
  tables: [],
  actions: { 'org.example.read': 'viewer' },
  routes: () => exampleRoutes(createExampleService()),
} satisfies DomainModule;
