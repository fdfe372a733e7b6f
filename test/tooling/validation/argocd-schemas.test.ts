import fs from 'node:fs';
import path from 'node:path';
import { ARGOCD_CRDS, argoCdCrds, crdRecordOf } from '../../../src/validation/argocd-schemas';
import { repoRoot } from '../../../src/paths';

/** The Argo CD records are named without reading their files; what names them must be what the files say. */
it.each(ARGOCD_CRDS.map((entry, i) => [entry.kind, entry, i] as const))(
  '%s: the record named up front is the bundled file, schema included (read on first use)',
  (_kind, entry, i) => {
    const file = crdRecordOf(fs.readFileSync(path.join(repoRoot(), 'schemas', 'argocd', entry.file), 'utf8'));
    const lazy = argoCdCrds()[i]!;
    expect({ ...lazy, versions: lazy.versions.map((v) => ({ ...v })) }).toEqual(file);
  },
);
