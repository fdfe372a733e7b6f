import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { routeTable } from '../../../api/route-table';
import type { RouteDef } from '../../../api/route-def';
import { ACTION_ROLES } from '../../../src/iam/action-roles';
import { ORG_ROLES, ROLE_RANK } from '../../../src/iam/principal';
import { minimumRole } from '../../../src/iam/role-authorizer';
import { FEATURE_LABELS, FEATURE_PLANS, PLAN_LABELS, type Feature } from '../../../src/plans/plan-features';
import { repoRoot } from '../../../src/paths';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

/**
 * docs/authorization.md carries three generated tables (routes with their actions, the role matrix, plan tiers)
 * between markers. This test regenerates them from the code and fails when the document is stale; run it with
 * UPDATE_AUTH_DOC=1 to rewrite them.
 */
const DOC = path.join(repoRoot(), 'docs', 'authorization.md');

function accessOf(route: RouteDef): string {
  return route.access.kind === 'organization' ? 'organization' : route.access.kind;
}

function routesSection(routes: RouteDef[]): string {
  const rows = routes.map((r) => {
    const action = r.access.kind === 'public' ? '–' : `\`${r.access.action}\``;
    const role =
      r.access.kind === 'organization'
        ? (minimumRole(ACTION_ROLES, r.access.action.replace(/\{\w+\}/g, '*')) ?? '**missing**')
        : r.access.kind === 'instance-admin'
          ? 'instance admin'
          : r.access.kind === 'authenticated'
            ? 'any signed-in user'
            : 'anyone';
    return `| ${r.method.toUpperCase()} | \`${r.path.replace(/:(\w+)/g, '{$1}')}\` | ${accessOf(r)} | ${action} | ${role} |`;
  });
  return ['| Method | Path | Access | Action | Minimum role |', '|---|---|---|---|---|', ...rows].join('\n');
}

function matrixSection(): string {
  const header = `| Action | ${ORG_ROLES.join(' | ')} |`;
  const rows = Object.entries(ACTION_ROLES).map(
    ([action, needed]) =>
      `| \`${action}\` | ${ORG_ROLES.map((role) => (ROLE_RANK[role] >= ROLE_RANK[needed] ? 'yes' : '–')).join(' | ')} |`,
  );
  return [header, `|---|${ORG_ROLES.map(() => '---').join('|')}|`, ...rows].join('\n');
}

function plansSection(): string {
  const rows = (Object.keys(FEATURE_PLANS) as Feature[]).map(
    (f) => `| \`${f}\` | ${FEATURE_LABELS[f]} | ${PLAN_LABELS[FEATURE_PLANS[f]]} |`,
  );
  return ['| Feature | What | Lowest plan |', '|---|---|---|', ...rows].join('\n');
}

function replaceSection(doc: string, name: string, body: string): string {
  const start = `<!-- generated:${name}:start -->`;
  const end = `<!-- generated:${name}:end -->`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/authorization.md lacks the ${name} markers`);
  return `${doc.slice(0, from + start.length)}\n${body}\n${doc.slice(to)}`;
}

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
});
afterAll(() => platform.close());

it('docs/authorization.md lists every route with its action, the role matrix and the plan tiers as the code has them', () => {
  const current = fs.readFileSync(DOC, 'utf8');
  let generated = replaceSection(current, 'routes', routesSection(routeTable(platform.services)));
  generated = replaceSection(generated, 'role-matrix', matrixSection());
  generated = replaceSection(generated, 'plans', plansSection());
  // Formatted as the repository formats markdown, so the committed file passes `npm run lint` unchanged.
  // (prettier 3 loads plugins with dynamic import, which jest's VM refuses, hence the child process)
  const expected = execFileSync(
    process.execPath,
    [require.resolve('prettier/bin/prettier.cjs'), '--stdin-filepath', DOC],
    {
      input: generated,
      encoding: 'utf8',
    },
  );
  if (process.env.UPDATE_AUTH_DOC === '1') fs.writeFileSync(DOC, expected);
  else expect(current).toBe(expected);
});
