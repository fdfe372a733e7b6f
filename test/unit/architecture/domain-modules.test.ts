import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DomainModule } from '../../../src/runtime/domain-module';
import { scaffoldDomain } from '../../../src/runtime/domain-scaffold';
import { DOMAIN_MODULES } from '../../../src/runtime/modules';
import { ROOT } from './source-scan';

/** The module list (issue 29): one manifest per domain, read by every registration point. */

function workflowExports(): string[] {
  const text = fs.readFileSync(path.join(ROOT, 'workflows/index.ts'), 'utf8');
  return [...text.matchAll(/^export \{([^}]*)\} from/gm)].flatMap((m) => m[1]!.split(',').map((n) => n.trim()));
}

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

describe('domain modules', () => {
  it('lists every module folder once, named after its folder', () => {
    const folders = fs
      .readdirSync(path.join(ROOT, 'src'))
      .filter((d) => d !== 'domain-template' && fs.existsSync(path.join(ROOT, 'src', d, 'module.ts')));
    expect(DOMAIN_MODULES.map((m) => m.name).sort()).toEqual(folders.sort());
  });

  it('claims every workflow type workflows/index.ts exports, each by one module', () => {
    const claimed = DOMAIN_MODULES.flatMap((m) => m.workflows ?? []);
    expect([...claimed].sort()).toEqual(workflowExports().sort());
    expect(new Set(claimed).size).toBe(claimed.length);
  });

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
      expect(added?.routes?.(null as never).map((r) => [r.method, r.path, r.access])).toEqual([
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
