import type { DomainModule } from '../runtime/domain-module';
import { provide } from '../runtime/service-provider';
import { createExampleService, type ExampleService } from './example-service';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** The template's service (optional here only: the template is in no module list; new-domain makes it required). */
    example?: ExampleService;
  }
}

/**
 * The skeleton of a new domain: `npm run new-domain -- <name>` copies this folder to src/<name> and its routes
 * (api/routes/domain-template) to api/routes/<name>, adds the module to src/runtime/modules.ts, its routes to
 * api/domain-routes.ts and their responses to schemas/route-responses.json. It provides its services (`provide(needs, build)`, `needs` naming other modules'
 * services, built first) and adds them to `DomainServices` above; its actions name their role floor here; its tables
 * come with a migration; workflows go to workflows/ and are listed here (workflows/index.ts is generated from this
 * list: `npm run build:workflow-index`, docs/CONTRIBUTING-SPINE.md).
 */
export const exampleModule = {
  name: 'domain-template',
  tables: [],
  services: {
    example: provide([], () => createExampleService()),
  },
  actions: { 'org.example.read': 'viewer' },
} satisfies DomainModule;
