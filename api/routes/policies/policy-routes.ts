import type { PolicyCreateRequest, PolicyEvaluateRequest } from '../../request-types.generated';
import type { PolicyBody, PolicyService } from '../../../src/policies/policy-service';
import type { RouteDef } from '../../route-def';
import { bodyOf, orgCallerOf } from '../../request';
import { projectPolicyRoutes } from './project-policy-routes';

/** Policies: manifest rules of projects (/api/v2/policies) and their evaluation without committing. */
export function policyRoutes(policies: PolicyService, pageMax: number): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/api/v2/policies/evaluate',
      summary: 'Which rules of the project policies pass or fail for a manifest set or a rendered target (no commit)',
      tag: 'policies',
      access: { kind: 'organization', action: 'org.policies.evaluate' },
      body: 'policy-evaluate',
      handler: async (ctx) => {
        ctx.body = await policies.evaluate(orgCallerOf(ctx), bodyOf<PolicyEvaluateRequest>(ctx));
      },
    },
    ...projectPolicyRoutes(
      policies,
      {
        path: '/api/v2/policies',
        actionPrefix: 'org.policies',
        tag: 'policies',
        label: 'policy',
        plural: 'Policies',
        bodySchema: 'policy-create',
        // The schema's oneOf by `type` is exactly the StoredRule union; the generated type spells it less precisely.
        body: (ctx) => bodyOf<PolicyCreateRequest>(ctx) as unknown as PolicyBody,
      },
      pageMax,
    ),
  ];
}
