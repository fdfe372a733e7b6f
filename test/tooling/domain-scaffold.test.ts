import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DomainModule } from '../../src/runtime/domain-module';
import { scaffoldDomain } from '../../src/runtime/domain-scaffold';
import type { ServiceProvider } from '../../src/runtime/service-provider';
import { repoRoot } from '../../src/paths';

/**
 * `npm run new-domain` (issue 29): a throwaway domain scaffolded into a scratch tree touches only its folder and the
 * module list, and loads with its route, its action and its service. Here, not in the unit tier: it transpiles the
 * whole module graph a second time under the scratch root.
 */
const ROOT = repoRoot();

/** A scratch root where src/runtime/modules.ts is a copy and everything else links to this checkout. */
function scratchRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-scaffold-'));
  for (const top of ['api', 'activities', 'workflows', 'schemas', 'node_modules', 'package.json']) {
    fs.symlinkSync(path.join(ROOT, top), path.join(root, top));
  }
  fs.mkdirSync(path.join(root, 'src/runtime'), { recursive: true });
  for (const entry of fs.readdirSync(path.join(ROOT, 'src'))) {
    if (entry !== 'runtime') fs.symlinkSync(path.join(ROOT, 'src', entry), path.join(root, 'src', entry));
  }
  for (const entry of fs.readdirSync(path.join(ROOT, 'src/runtime'))) {
    const from = path.join(ROOT, 'src/runtime', entry);
    const to = path.join(root, 'src/runtime', entry);
    if (entry === 'modules.ts') fs.copyFileSync(from, to);
    else fs.symlinkSync(from, to);
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=t@example.test', '-c', 'user.name=t', 'commit', '-qm', 'base');
  return root;
}

describe('the domain scaffold', () => {
  it('adds a throwaway domain by touching only its folder and the module list', () => {
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
      expect(touched.every((f) => f.startsWith('src/throwaway-box/') || f === 'src/runtime/modules.ts')).toBe(true);

      // The new module is in the list, with its route, its action's role floor and its owner name.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const list = require(path.join(root, 'src/runtime/modules.ts')) as {
        DOMAIN_MODULES: readonly DomainModule[];
        actionRoles(kernel: Record<string, string>): Record<string, string>;
      };
      const added = list.DOMAIN_MODULES.find((m) => m.name === 'throwaway-box');
      const provider = (added?.services as Record<string, ServiceProvider<unknown>> | undefined)?.throwawayBox;
      expect(provider?.needs).toEqual([]);
      const services = { throwawayBox: provider?.build(null as never) };
      expect(added?.routes?.(services as never).map((r) => [r.method, r.path, r.access])).toEqual([
        ['get', '/api/v2/throwaway-box-items', { kind: 'organization', action: 'org.throwaway-box.read' }],
      ]);
      expect(list.actionRoles({})['org.throwaway-box.read']).toBe('viewer');
      expect(() => scaffoldDomain(root, 'throwaway-box')).toThrow('src/throwaway-box exists already');
      expect(() => scaffoldDomain(root, 'Bad Name')).toThrow('invalid domain name');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
