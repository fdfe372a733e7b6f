import { fieldErrors } from '../../../web/src/components/field-errors';

/** The UI puts a refusal under the field whose body path it names (web/src/components/field-errors.ts). */
describe('fieldErrors', () => {
  const fields = { name: 'name', 'image.repository': 'repository', 'image.tag': 'tag', ports: 'port' };

  it('gives a schema refusal to the field of its body path, the longest prefix winning', () => {
    const error = 'invalid request body: image.tag must be an image tag';
    const errors = fieldErrors(error, fields);
    expect([errors.of('tag'), errors.of('repository'), errors.form]).toEqual([error, null, null]);
    const port = fieldErrors('invalid request body: ports.0.containerPort must be integer', fields);
    expect(port.of('port')).toMatch(/containerPort/);
    expect(fieldErrors('invalid request body: unknown field image.digest', { image: 'image' }).of('image')).toMatch(
      /digest/,
    );
  });

  it('leaves every other refusal with the form', () => {
    for (const error of ['workload web exists', 'invalid request body: replicas must be integer', null]) {
      const errors = fieldErrors(error, fields);
      expect([errors.of('name'), errors.of('tag'), errors.form]).toEqual([null, null, error]);
    }
    // A path that only starts like a field's name is not that field's.
    expect(fieldErrors('invalid request body: names must be unique', fields).of('name')).toBeNull();
  });
});
