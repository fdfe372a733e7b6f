import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { RouteDef } from '../api/route-def';
import { ORG_ROLES, ROLE_RANK } from '../src/iam/principal';
import { minimumRole } from '../src/iam/role-authorizer';
import { KEY_ALLOWLIST, KEY_SCOPES } from '../src/machine-access/key-allowlist';
import { repoRoot } from '../src/paths';
import { FEATURE_LABELS, FEATURE_PLANS, PLAN_LABELS, type Feature } from '../src/plans/plan-features';
import { actionRoles } from '../src/runtime/modules';

/**
 * The generated tables of docs/authorization.md (routes with their actions, the role matrix, plan tiers) and of
 * docs/machine-access.md (the API-key allowlist), each between `<!-- generated:<name>:start/end -->` markers, from
 * the route table and the action vocabulary. test/integration/iam/authorization-doc.test.ts fails when a document is
 * stale (UPDATE_AUTH_DOC=1 rewrites it); `npm run new-domain` rewrites them for the new domain's route and actions.
 */

const ACTION_ROLES = actionRoles();

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

/** Each document with its generated sections' bodies, by path relative to the root. */
function sections(routes: RouteDef[]): Record<string, Record<string, string>> {
  return {
    'docs/authorization.md': { routes: routesSection(routes), 'role-matrix': matrixSection(), plans: plansSection() },
    'docs/machine-access.md': { 'key-allowlist': allowlistSection(routes) },
  };
}

/**
 * Every generated document as the code has it, by path relative to `root`: its current text with the generated
 * sections replaced, formatted as the repository formats markdown (so it passes `npm run lint` unchanged; a child
 * process, as prettier 3 loads its plugins with a dynamic import, which jest's VM refuses).
 */
export function authorizationDocs(routes: RouteDef[], root = repoRoot()): Record<string, string> {
  return Object.fromEntries(
    Object.entries(sections(routes)).map(([file, bodies]) => {
      const current = fs.readFileSync(path.join(root, file), 'utf8');
      const generated = Object.entries(bodies).reduce((doc, [name, body]) => replaceSection(doc, name, body), current);
      const formatted = execFileSync(
        process.execPath,
        [require.resolve('prettier/bin/prettier.cjs'), '--stdin-filepath', path.join(root, file)],
        { input: generated, encoding: 'utf8' },
      );
      return [file, formatted];
    }),
  );
}
