import { CatalogList } from './catalog-list';
import { Charts } from './charts';

/** The organization's registry catalog: Helm charts, kustomize bases, manifest bundles. */
export function RegistryView() {
  return (
    <main>
      <h1>Registry</h1>
      <Charts />
      <CatalogList kind="kustomize-bases" title="Kustomize bases" noun="kustomize base" />
      <CatalogList kind="manifest-bundles" title="Manifest bundles" noun="manifest bundle" />
    </main>
  );
}
