import { SEARCH_ATTRIBUTES } from '../../../src/temporal/definitions';
import { startDescription } from '../../../src/temporal/workflow-labels';

/**
 * What every workflow start shows every Temporal UI reader (the API's starts through src/temporal/start-workflow.ts,
 * the children through workflows/lib/child-description.ts): no e-mail address in its summary, details or search
 * attributes, whatever the caller put there (a title, a message, an actor).
 */
const slugs = { organization: 'acme-corp', project: 'shop' };
const address = /[^\s@]+@[^\s@]+\.[^\s@]+/;

it('shows no e-mail address in a summary, details or search attribute, and keeps the rest', () => {
  const shown = startDescription(
    {
      labels: { organizationId: 'org-1', projectId: 'project-1', environment: 'prod' },
      searchAttributes: [{ key: SEARCH_ATTRIBUTES.resourceStatus, value: 'invited ann@example.test' }],
      summary: 'escalation "on-call": mail from ann.lee+ops@mail.example.test failed',
      details: 'Invitation of <bob@example.test>',
    },
    slugs,
  );
  const texts = [
    shown.staticSummary,
    shown.staticDetails,
    ...(shown.typedSearchAttributes ?? []).map((pair) => String(pair.value)),
  ];
  expect(texts.filter((text) => address.test(text ?? ''))).toEqual([]);
  expect(shown.staticSummary).toBe('acme-corp/shop prod: escalation "on-call": mail from [address] failed');
  expect(shown.staticDetails).toBe('Invitation of <[address]>');
  expect(shown.typedSearchAttributes?.map((pair) => [pair.key.name, pair.value])).toEqual([
    ['OrganizationId', 'org-1'],
    ['OrganizationSlug', 'acme-corp'],
    ['ProjectId', 'project-1'],
    ['ProjectSlug', 'shop'],
    ['Environment', 'prod'],
    ['ResourceStatus', 'invited [address]'],
  ]);
});

it('leaves a start without labels as the caller described it, minus addresses', () => {
  expect(startDescription({ summary: 'Delivery path proof' }, { organization: null, project: null })).toEqual({
    typedSearchAttributes: undefined,
    staticSummary: 'Delivery path proof',
    staticDetails: undefined,
  });
});
