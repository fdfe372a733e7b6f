import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DomainModule } from '../../src/runtime/domain-module';
import { scaffoldDomain } from '../../src/runtime/domain-scaffold';
import type { ServiceProvider } from '../../src/runtime/service-provider';
import { repoRoot } from '../../src/paths';

/**
 * `npm run new-domain` (issue 29): a throwaway domain scaffolded into a scratch tree touches only its folders (src/ and
 * api/routes/), the module list and the route list, and loads with its route, its action and its service. Here, not in the unit tier: it transpiles the
 * whole module graph a second time under the scratch root.
 */
const ROOT = repoRoot();

/** The files the scaffold edits, copied into the scratch root; everything else links to this checkout. */
const EDITED = ['src/runtime/modules.ts', 'api/domain-routes.ts'];
/** Folders the scaffold writes into (a new domain's folders), made real so nothing lands in this checkout. */
const WRITTEN_INTO = ['src', 'api/routes'];

/** `rel` of this checkout mirrored under `root`: the edited files copied, their folders real, the rest linked. */
function mirror(root: string, rel: string): void {
  const inside = (dir: string) => dir === rel || dir.startsWith(`${rel}/`);
  if (EDITED.includes(rel)) return fs.copyFileSync(path.join(ROOT, rel), path.join(root, rel));
  if (rel !== '' && !EDITED.some((f) => inside(path.dirname(f))) && !WRITTEN_INTO.some(inside)) {
    return fs.symlinkSync(path.join(ROOT, rel), path.join(root, rel));
  }
  if (rel !== '') fs.mkdirSync(path.join(root, rel));
  for (const entry of fs.readdirSync(path.join(ROOT, rel))) {
    if (
      rel !== '' ||
      ['api', 'activities', 'workflows', 'schemas', 'src', 'node_modules', 'package.json'].includes(entry)
    ) {
      mirror(root, path.join(rel, entry));
    }
  }
}

/** A scratch root where the edited files are copies and everything else links to this checkout, committed in git. */
function scratchRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-scaffold-'));
  mirror(root, '');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=t@example.test', '-c', 'user.name=t', 'commit', '-qm', 'base');
  return root;
}

describe('the domain scaffold', () => {
  it('adds a throwaway domain by touching only its folders, the module list and the route list', () => {
    const root = scratchRoot();
    try {
      const written = scaffoldDomain(root, 'throwaway-box');
      const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
        cwd: root,
        encoding: 'utf8',
      });
      const touched = status
        .split('\n')
        .filter(Boolean)
        .map((line) => line.slice(3));
      expect(touched.sort()).toEqual(written.sort());
      const own = (f: string) => f.startsWith('src/throwaway-box/') || f.startsWith('api/routes/throwaway-box/');
      expect(touched.filter((f) => !own(f)).sort()).toEqual([...EDITED].sort());

      // The new module is in the list, with its route, its action's role floor and its owner name.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const list = require(path.join(root, 'src/runtime/modules.ts')) as {
        DOMAIN_MODULES: readonly DomainModule[];
        actionRoles(kernel: Record<string, string>): Record<string, string>;
      };
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const routes = require(path.join(root, 'api/domain-routes.ts')) as typeof import('../../api/domain-routes');
      const added = list.DOMAIN_MODULES.find((m) => m.name === 'throwaway-box');
      const provider = (added?.services as Record<string, ServiceProvider<unknown>> | undefined)?.throwawayBox;
      expect(provider?.needs).toEqual([]);
      const services = { throwawayBox: provider?.build(null as never) };
      expect(
        routes.DOMAIN_ROUTES['throwaway-box']?.(services as never).map((r) => [r.method, r.path, r.access]),
      ).toEqual([['get', '/api/v2/throwaway-box-items', { kind: 'organization', action: 'org.throwaway-box.read' }]]);
      expect(list.actionRoles({})['org.throwaway-box.read']).toBe('viewer');
      expect(() => scaffoldDomain(root, 'throwaway-box')).toThrow('src/throwaway-box exists already');
      expect(() => scaffoldDomain(root, 'Bad Name')).toThrow('invalid domain name');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
