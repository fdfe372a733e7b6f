import { loadSchemaValidator } from '../../../src/http/schema-validator';

/**
 * A rollout plan has one shape wherever a request carries it (request schemas cannot reference each other): the
 * environment's plan (PUT .../rollout-plan), a rollout's and a promotion request's explicit plan. A field added to
 * one and not the others fails here.
 */
describe('the rollout plan in request schemas', () => {
  const schemas = loadSchemaValidator();
  const planOf = (id: string) =>
    (schemas.schema(id) as { properties: { plan: { properties: Record<string, unknown> } } }).properties.plan;

  it('is the PUT rollout-plan body in a rollout start and in a promotion request', () => {
    const put = schemas.schema('rollout-plan-put') as { properties: Record<string, unknown> };
    for (const id of ['rollout-start', 'promotion-request']) {
      expect(planOf(id).properties).toEqual(put.properties);
    }
  });

  it('is accepted in a promotion request, and checked there like anywhere else', () => {
    const body = { sourceEnvironment: 'dev', targetEnvironment: 'prod' };
    expect(() => schemas.check('promotion-request', { ...body, plan: { waves: [{ percent: 50 }] } })).not.toThrow();
    expect(() => schemas.check('promotion-request', { ...body, plan: { waves: [{ percent: 150 }] } })).toThrow(
      /percent/,
    );
  });
});
