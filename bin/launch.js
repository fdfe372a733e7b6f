'use strict';
/**
 * Runs a TypeScript entry of this package without a build step: the entry is bundled once with esbuild (project
 * files only; packages stay in node_modules) into node_modules/.cache/delivery/, and bundled again only when one of
 * its input files changed (their list and mtimes are kept beside the bundle). A warm start costs one stat per input.
 * Bundles are kept per checkout: a git worktree sharing this node_modules (scripts/gate-mutations.sh) has its own.
 */
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const checkout = createHash('sha256').update(root).digest('hex').slice(0, 12);
const cacheDir = path.join(root, 'node_modules', '.cache', 'delivery', checkout);

function fresh(bundle, inputsFile) {
  let built;
  try {
    built = fs.statSync(bundle).mtimeMs;
  } catch {
    return false;
  }
  let inputs;
  try {
    inputs = JSON.parse(fs.readFileSync(inputsFile, 'utf8'));
  } catch {
    return false;
  }
  return inputs.every((file) => {
    const stat = fs.statSync(path.join(root, file), { throwIfNoEntry: false });
    return stat !== undefined && stat.mtimeMs <= built;
  });
}

/** The path of an up-to-date bundle of `entry` (relative to the package root). */
function bundled(entry) {
  const name = entry.replace(/[\\/]/g, '_').replace(/\.ts$/, '.js');
  const bundle = path.join(cacheDir, name);
  const inputsFile = `${bundle}.inputs.json`;
  if (fresh(bundle, inputsFile)) return bundle;
  const esbuild = require('esbuild');
  fs.mkdirSync(cacheDir, { recursive: true });
  const tmp = `${bundle}.${process.pid}.tmp`;
  const result = esbuild.buildSync({
    entryPoints: [path.join(root, entry)],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    sourcemap: 'inline',
    metafile: true,
    logLevel: 'error',
    absWorkingDir: root,
  });
  fs.renameSync(tmp, bundle);
  fs.writeFileSync(inputsFile, JSON.stringify(Object.keys(result.metafile.inputs)));
  return bundle;
}

module.exports = { bundled, root };
