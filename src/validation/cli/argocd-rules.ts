import fs from 'node:fs';
import path from 'node:path';
import { checkRepository } from '../../argocd-semantics/semantics-check';
import { kubeScopeOf } from '../kube-scopes';
import { InputUnreadable } from './setup';
import { readFailure } from './sources';

/** The files of a checked-out repository, by path relative to it (`.git` and other hidden folders left out). */
function readTree(dir: string): Map<string, string> {
  const tree = new Map<string, string>();
  const walk = (folder: string, rel: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(folder, entry.name);
      const name = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.')) walk(full, name);
      } else if (entry.isFile() && /\.(ya?ml|json)$/.test(entry.name)) tree.set(name, fs.readFileSync(full, 'utf8'));
    }
  };
  try {
    walk(dir, '');
  } catch (error) {
    throw new InputUnreadable(`--argocd ${dir}: ${readFailure(error) ?? String(error)}`);
  }
  return tree;
}

/**
 * `--argocd DIR` (docs/validate-cli.md): Argo CD's rules over a repository the platform generated, beyond the
 * schemas (src/argocd-semantics): each Argo CD set up from the repository's bootstrap roots, what it would
 * refuse or get wrong. Printed as `argocd: <dir>: <instance>: <finding>` lines; returns the number of findings.
 */
export function runArgoCdRules(dirs: readonly string[], base: string, write: (line: string) => void): number {
  let total = 0;
  for (const dir of dirs) {
    let count = 0;
    const results = checkRepository(readTree(path.resolve(base, dir)), { scopeOf: kubeScopeOf });
    if (results.length === 0) {
      write(`argocd: ${dir}: no root under bootstrap/ to start from`);
      count++;
    }
    for (const { instance, findings } of results) {
      for (const finding of findings) write(`argocd: ${dir}: ${instance}: ${finding}`);
      count += findings.length;
    }
    write(`argocd: ${dir}: ${results.length} Argo CD setups checked, ${count} findings`);
    total += count;
  }
  return total;
}
