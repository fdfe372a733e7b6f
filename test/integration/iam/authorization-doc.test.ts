import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { routeTable } from '../../../api/route-table';
import type { RouteDef } from '../../../api/route-def';
import { actionRoles } from '../../../src/runtime/modules';
import { ORG_ROLES, ROLE_RANK } from '../../../src/iam/principal';
import { minimumRole } from '../../../src/iam/role-authorizer';
import { FEATURE_LABELS, FEATURE_PLANS, PLAN_LABELS, type Feature } from '../../../src/plans/plan-features';
import { repoRoot } from '../../../src/paths';
import { KEY_ALLOWLIST, KEY_SCOPES } from '../../../src/machine-access/key-allowlist';
import { startTestPlatform, type TestPlatform } from '../../helpers/test-platform';

/** The whole action vocabulary: the kernel's actions and every module's. */
const ACTION_ROLES = actionRoles();

/**
 * docs/authorization.md carries three generated tables (routes with their actions, the role matrix, plan tiers)
 * between markers. This test regenerates them from the code and fails when the document is stale; run it with
 * UPDATE_AUTH_DOC=1 to rewrite them.
 */
const DOC = path.join(repoRoot(), 'docs', 'authorization.md');
/** docs/machine-access.md carries the API-key allowlist, generated the same way. */
const MACHINE_DOC = path.join(repoRoot(), 'docs', 'machine-access.md');

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

/** The fixed API-key allowlist with the scopes that open each row and the action the chain then checks. */
function allowlistSection(routes: RouteDef[]): string {
  const header = `| Method | Path | Action | ${KEY_SCOPES.map((s) => `\`${s}\``).join(' | ')} |`;
  const rows = KEY_ALLOWLIST.map((e) => {
    const route = routes.find((r) => r.method === e.method && r.path === e.path);
    const action = route && route.access.kind !== 'public' ? route.access.action : 'projects.{slug}.git.read';
    const cells = KEY_SCOPES.map((s) => (e.scopes.includes(s) ? 'yes' : '–')).join(' | ');
    return `| ${e.method.toUpperCase()} | \`${e.path.replace(/:(\w+)/g, '{$1}')}\` | \`${action}\` | ${cells} |`;
  });
  return [header, `|---|---|---|${KEY_SCOPES.map(() => '---').join('|')}|`, ...rows].join('\n');
}

function replaceSection(doc: string, name: string, body: string): string {
  const start = `<!-- generated:${name}:start -->`;
  const end = `<!-- generated:${name}:end -->`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`the document lacks the ${name} markers`);
  return `${doc.slice(0, from + start.length)}\n${body}\n${doc.slice(to)}`;
}

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ worker: false });
});
afterAll(() => platform.close());

/** Regenerates the sections of one document; UPDATE_AUTH_DOC=1 writes it, otherwise it must be current. */
function checkDocument(file: string, sections: Record<string, string>): void {
  const current = fs.readFileSync(file, 'utf8');
  const generated = Object.entries(sections).reduce((doc, [name, body]) => replaceSection(doc, name, body), current);
  // Formatted as the repository formats markdown, so the committed file passes `npm run lint` unchanged.
  // (prettier 3 loads plugins with dynamic import, which jest's VM refuses, hence the child process)
  const expected = execFileSync(
    process.execPath,
    [require.resolve('prettier/bin/prettier.cjs'), '--stdin-filepath', file],
    {
      input: generated,
      encoding: 'utf8',
    },
  );
  if (process.env.UPDATE_AUTH_DOC === '1') fs.writeFileSync(file, expected);
  else expect(current).toBe(expected);
}

it('docs/authorization.md lists every route with its action, the role matrix and the plan tiers as the code has them', () => {
  checkDocument(DOC, {
    routes: routesSection(routeTable(platform.services)),
    'role-matrix': matrixSection(),
    plans: plansSection(),
  });
});

it('docs/machine-access.md shows the API-key allowlist as the code has it', () => {
  checkDocument(MACHINE_DOC, { 'key-allowlist': allowlistSection(routeTable(platform.services)) });
});
