import type { DomainModule } from '../runtime/domain-module';
import { owned, provide } from '../runtime/service-provider';
import { createExampleService, type ExampleService } from './example-service';

declare module '../runtime/service-provider' {
  interface DomainServices {
    /** The template's service (optional here only: the template is in no module list; new-domain makes it required). */
    example?: ExampleService;
  }
}

/**
 * What src/domain-template plugs into the platform (src/runtime/domain-module.ts), as `npm run new-domain` writes it
 * (src/runtime/domain-scaffold.ts, docs/CONTRIBUTING-SPINE.md "The module shape"). It provides its services
 * (`provide(needs, build)`, `needs` naming other modules' services, built first) and adds them to `DomainServices`
 * above; its actions name their role floor here; its tables come with their migration; its workflows are listed here
 * (workflows/index.ts is generated from this list: `npm run build:workflow-index`).
 */
export const exampleModule = {
  name: 'domain-template',
  tables: ['example_items'],
  workflows: ['exampleItemWorkflow'],
  services: {
    example: provide([], (core) => createExampleService(owned(core))),
  },
  actions: { 'org.example.read': 'viewer' },
} satisfies DomainModule;
