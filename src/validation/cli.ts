import fs from 'node:fs';
import path from 'node:path';
import { USAGE, UsageError, parseCliArgs, type CliArgs } from './cli-args';
import { formatJson, formatText, type FileReport } from './cli-output';
import type { CrdRecord } from './crd/crd-types';
import { ValidationEngine } from './engine';
import { ManifestRejected } from './errors';
import { isSupportedVersion, SUPPORTED_K8S_VERSIONS } from './versions';

const MANIFEST = /\.(ya?ml|json)$/i;

/** Files, and manifests found under directories, in a stable order. */
function expand(base: string, inputs: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (file: string, shown: string): void => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) throw new UsageError(`${shown}: no such file or directory`);
    if (!stat.isDirectory()) {
      files.push(shown);
      return;
    }
    for (const entry of fs.readdirSync(file).sort()) {
      const child = path.join(file, entry);
      if (fs.statSync(child).isDirectory() || MANIFEST.test(entry)) walk(child, path.join(shown, entry));
    }
  };
  for (const input of inputs) walk(path.resolve(base, input), input);
  return files;
}

function validateFile(
  engine: ValidationEngine,
  args: CliArgs,
  crds: CrdRecord[],
  base: string,
  file: string,
): FileReport {
  const text = fs.readFileSync(path.resolve(base, file), 'utf8');
  try {
    return { file, ...engine.validate(text, args.version, { crds }) };
  } catch (error) {
    if (!(error instanceof ManifestRejected)) throw error;
    // A refused manifest is an invalid file for CI: one error result, same shape as any other report.
    const result = { severity: 'error' as const, message: error.message, path: '', resource: '<manifest>' };
    return { file, valid: false, results: [result], summary: { errors: 1, warnings: 0, info: 0 } };
  }
}

export async function main(argv: readonly string[], base: string): Promise<number> {
  const parsed = parseCliArgs(argv);
  if (parsed === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (!isSupportedVersion(parsed.version)) {
    throw new UsageError(`--version must be one of ${SUPPORTED_K8S_VERSIONS.join(', ')}`);
  }
  // Local files of the user's own pipeline: size limits fit a CI run, the shape limits (aliases, depth) stay.
  const engine = new ValidationEngine({
    limits: { maxBytes: 64 * 1024 * 1024, maxDocuments: 100_000, maxResources: 100_000, maxNodes: 50_000_000 },
  });
  await engine.init();
  const crds = parsed.crdFiles.map((f) => engine.checkCrd(fs.readFileSync(path.resolve(base, f), 'utf8')));
  let failed = false;
  for (const file of expand(base, parsed.files)) {
    const report = validateFile(engine, parsed, crds, base, file);
    failed ||= !report.valid;
    process.stdout.write(`${parsed.output === 'json' ? formatJson(report) : formatText(report)}\n`);
  }
  return failed ? 1 : 0;
}

if (require.main === module) {
  // Paths are relative to the working directory (for `npm run validate`, the package folder).
  main(process.argv.slice(2), process.cwd()).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`validate: ${message}\n${error instanceof UsageError ? `\n${USAGE}\n` : ''}`);
      process.exitCode = 2;
    },
  );
}
