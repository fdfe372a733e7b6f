export interface CliArgs {
  version: string;
  output: 'text' | 'json';
  crdFiles: string[];
  files: string[];
}

export class UsageError extends Error {}

export const USAGE = `Usage: validate --version <1.25..1.32> [--output json|text] [--crd CRD_FILE]... FILE|DIR...

Validates Kubernetes manifests offline with the platform's engine. Directories are searched for
*.yaml, *.yml and *.json. With --output json, prints one JSON object per file per line: the body of
POST /api/v2/k8s/validate plus "file". Exit status: 0 valid, 1 some file has an error, 2 usage error.`;

/** Parses argv (without node and script); throws UsageError with the reason. */
export function parseCliArgs(argv: readonly string[]): CliArgs | 'help' {
  const args: CliArgs = { version: '', output: 'text', crdFiles: [], files: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === '--help' || flag === '-h') return 'help';
    else if (flag === '--version') args.version = value();
    else if (flag === '--crd') args.crdFiles.push(value());
    else if (flag === '--output' || flag === '-o') {
      const output = value();
      if (output !== 'json' && output !== 'text')
        throw new UsageError(`--output must be json or text, not "${output}"`);
      args.output = output;
    } else if (flag.startsWith('-') && flag !== '-') throw new UsageError(`unknown option ${flag}`);
    else args.files.push(arg);
  }
  if (!args.version) throw new UsageError('--version is required');
  if (args.files.length === 0) throw new UsageError('no manifest file given');
  return args;
}
