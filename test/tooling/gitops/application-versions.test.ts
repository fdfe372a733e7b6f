/**
 * A generate records each Application's version from the Deployment object the generator dumped (FileChanges.objects)
 * instead of parsing its text back (issue 46): the same figures as from the text, on a whole rendered project.
 */
import { applicationContents, applicationsTouched } from '../../../src/deployments/application-digest';
import { filesAfter } from '../../../src/deployments/committed-files';
import { managedChanges } from '../../../src/gitops/commit-operation';
import { renderAll } from '../../../src/gitops/manifests';
import { serviceDir } from '../../../src/delivery-layout/target-paths';
import { ACCEPTANCE, deliveryModel } from './delivery-models';

it('gives the same digests and versions from the generated objects as from their text', () => {
  const rendered = renderAll(deliveryModel(ACCEPTANCE));
  const changes = managedChanges(new Map(), rendered, ['tenants/']);
  expect(changes.objects?.size).toBeGreaterThan(0);
  const committed = filesAfter(changes, applicationsTouched)!;
  expect(committed.known?.objects).toBe(changes.objects);
  expect(committed.targets.length).toBeGreaterThan(0);

  const fromText = applicationContents(committed.files, committed.targets);
  const fromObjects = applicationContents(committed.files, committed.targets, committed.known);
  expect(fromObjects).toEqual(fromText);
  // Once the render's digest was asked, the directories' digests are the render's: the same figures again.
  rendered.digest();
  const own = (dir: string) => new Map([...committed.files].filter(([path]) => path.startsWith(`${dir}/`)));
  expect(committed.targets.every((t) => rendered.directoryDigest(serviceDir(t), own(serviceDir(t))))).toBe(true);
  expect(applicationContents(committed.files, committed.targets, committed.known)).toEqual(fromText);
  expect(fromObjects.every((content) => content.version !== null)).toBe(true);

  // The objects are what is read: a Deployment object saying another tag gives that tag.
  const [first] = committed.targets;
  const path = `tenants/${first!.tenant}/${first!.environment}/${first!.service}/deployment.yaml`;
  const other = new Map([[path, { spec: { template: { spec: { containers: [{ image: 'r.example/x:9.9.9' }] } } } }]]);
  expect(applicationContents(committed.files, [first!], { objects: other })[0]?.version).toBe('9.9.9');
});
