import fs from 'node:fs';
import path from 'node:path';
import { DOMAIN_MODULES } from '../../../src/runtime/modules';
import { DOMAIN_ROUTES } from '../../../api/domain-routes';
import { DOMAIN_ACTIVITIES } from '../../../activities/domain-activities';
import { ROOT } from './source-scan';

/**
 * The module list (issue 29): one manifest per domain, read by every registration point (the scaffold's test is
 * test/tooling/domain-scaffold.test.ts).
 */

function workflowExports(): string[] {
  const text = fs.readFileSync(path.join(ROOT, 'workflows/index.ts'), 'utf8');
  return [...text.matchAll(/^export \{([^}]*)\} from/gm)].flatMap((m) => m[1]!.split(',').map((n) => n.trim()));
}

describe('domain modules', () => {
  it('lists every module folder once, named after its folder', () => {
    const folders = fs
      .readdirSync(path.join(ROOT, 'src'))
      .filter((d) => d !== 'domain-template' && fs.existsSync(path.join(ROOT, 'src', d, 'module.ts')));
    expect(DOMAIN_MODULES.map((m) => m.name).sort()).toEqual(folders.sort());
  });

  it('wires routes and activities only to modules of the list, by their names', () => {
    const names = new Set(DOMAIN_MODULES.map((m) => m.name));
    expect(Object.keys(DOMAIN_ROUTES).filter((name) => !names.has(name))).toEqual([]);
    expect(Object.keys(DOMAIN_ACTIVITIES).filter((name) => !names.has(name))).toEqual([]);
  });

  it('claims every workflow type workflows/index.ts exports, each by one module', () => {
    const claimed = DOMAIN_MODULES.flatMap((m) => m.workflows ?? []);
    expect([...claimed].sort()).toEqual(workflowExports().sort());
    expect(new Set(claimed).size).toBe(claimed.length);
  });
});
