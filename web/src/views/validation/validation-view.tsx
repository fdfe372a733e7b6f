import { Crds } from './crds';
import { Playground } from './playground';
import { SchemaBrowser } from './schema-browser';

/** Validation: the playground, the schema browser and the organization's CRDs. */
export function ValidationView() {
  return (
    <main>
      <h1>Validation and schemas</h1>
      <Playground />
      <Crds />
      <SchemaBrowser />
    </main>
  );
}
