import path from 'node:path';
import type { CliArgs } from '../cli-args';
import type { DocumentChunk } from '../manifest/split-documents';
import type { ResourceReport } from '../validate-manifest';
import type { Source } from './sources';
import type { DocumentValidator } from './validate-source';

/** Kustomize's file names: such a file without `kind` is a Kustomization (kustomize accepts it so). */
const KUSTOMIZATION_FILE = /^(?:kustomization\.ya?ml|Kustomization)$/;
const KUSTOMIZE_KIND = /^(?:Kustomization|Component)\//;
const KIND_LINE = /^kind:/m;

/** `**` any folders, `*` and `?` within one segment; the glob matches the path or a tail of it at a `/`. */
export function globRegExp(glob: string): RegExp {
  const pieces = new Map([
    ['**/', '(?:.*/)?'],
    ['**', '.*'],
    ['*', '[^/]*'],
    ['?', '[^/]'],
  ]);
  const body = glob
    .split(/(\*\*\/|\*\*|\*|\?)/)
    .map((part) => pieces.get(part) ?? part.replace(/[.+^${}()|[\]\\]/g, '\\$&'))
    .join('');
  return new RegExp(`(?:^|/)${body}$`);
}

/** The Kubernetes version of a source: the first `--version-for GLOB=VERSION` whose glob matches it, else --version. */
export function versionOf(args: Pick<CliArgs, 'version' | 'versionFor'>, source: Source): string {
  const name = (source.file ?? source.name).split(path.sep).join('/');
  return args.versionFor.find((rule) => globRegExp(rule.glob).test(name))?.version ?? args.version;
}

/**
 * The validator of each source, by its version, around the engine's (`validatorAt`): a Kustomization file without
 * `apiVersion`/`kind` is read as `kustomize.config.k8s.io/v1beta1` Kustomization, and kustomize kinds need no name.
 */
export function sourceValidators(
  args: Pick<CliArgs, 'version' | 'versionFor'>,
  validatorAt: (version: string) => DocumentValidator,
): (source: Source) => DocumentValidator {
  const byVersion = new Map<string, DocumentValidator>();
  return (source) => {
    const version = versionOf(args, source);
    let validate = byVersion.get(version);
    if (!validate) {
      validate = validatorAt(version);
      byVersion.set(version, validate);
    }
    const engine = validate;
    const kustomization = KUSTOMIZATION_FILE.test(path.basename(source.name));
    return (chunk: DocumentChunk, index: number): ResourceReport[] => {
      const doc =
        kustomization && chunk.text.trim() !== '' && !KIND_LINE.test(chunk.text)
          ? { ...chunk, text: `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n${chunk.text}` }
          : chunk;
      return engine(doc, index).map((report) =>
        KUSTOMIZE_KIND.test(report.resource)
          ? { ...report, results: report.results.filter((r) => r.path !== 'metadata.name') }
          : report,
      );
    };
  };
}
