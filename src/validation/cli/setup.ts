import fs from 'node:fs';
import path from 'node:path';
import { UsageError, type CliArgs } from '../cli-args';
import { ValidationEngine } from '../engine';
import { InvalidCrd, ManifestRejected } from '../errors';
import { readFailure } from './sources';
import { argoCdCrds } from '../argocd-schemas';
import { KUSTOMIZATION_KINDS } from '../kustomization-kinds';
import { sourceValidators } from './source-validators';
import type { Source } from './sources';
import type { DocumentValidator } from './validate-source';

/** An input the run cannot do without (a --crd file) could not be read: exit status 3. */
export class InputUnreadable extends Error {}

/**
 * The engine as the CLI runs it: limits per document (documents are validated one at a time, so the size
 * of a file is not limited), each file at its release (--version, --version-for), the --crd files checked as the
 * upload route does, Argo CD's kinds (schemas/argocd) and kustomize's Kustomization files.
 */
export async function createValidator(args: CliArgs, base: string): Promise<(source: Source) => DocumentValidator> {
  const engine = new ValidationEngine({
    limits: { maxBytes: 64 * 1024 * 1024, maxResources: 100_000, maxNodes: 50_000_000 },
  });
  await engine.init();
  const crds = args.crdFiles.map((file) => {
    let text: string;
    try {
      text = fs.readFileSync(path.resolve(base, file), 'utf8');
    } catch (error) {
      throw new InputUnreadable(`--crd ${file}: ${readFailure(error) ?? String(error)}`);
    }
    try {
      return engine.checkCrd(text);
    } catch (error) {
      if (error instanceof InvalidCrd || error instanceof ManifestRejected)
        throw new UsageError(`--crd ${file}: ${error.message}`);
      throw error;
    }
  });
  const all = [...crds, ...argoCdCrds(), ...KUSTOMIZATION_KINDS];
  return sourceValidators(args, (version) => engine.documentValidator(version, { crds: all }));
}
