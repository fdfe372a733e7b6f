import type { Severity } from './types';
import { isSupportedVersion, SUPPORTED_K8S_VERSIONS } from './versions';

export const OUTPUT_FORMATS = ['text', 'json', 'junit', 'tap', 'sarif'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface CliArgs {
  version: string;
  output: OutputFormat;
  /** Unknown fields are errors, not warnings (kubeconform's -strict). */
  strict: boolean;
  /** Kinds not validated at all; their resources are reported as skipped. */
  skip: Set<string>;
  /** Kinds refused outright: each such resource is an error. */
  reject: Set<string>;
  /** Resources of kinds no schema or CRD describes are skipped instead of failing. */
  ignoreMissingSchemas: boolean;
  /** Results below this severity are not reported. */
  severity: Severity;
  crdFiles: string[];
  /** `--version-for GLOB=VERSION`: files matching a glob validate at that version (first match wins). */
  versionFor: { glob: string; version: string }[];
  workers: number;
  /** `--argocd DIR`: repositories to check against Argo CD's rules (src/validation/cli/argocd-rules.ts). */
  argocd: string[];
  /** Files, directories and `-` for stdin, in the order given. */
  inputs: string[];
}

export class UsageError extends Error {}

export const CONFIG_FILE = '.delivery-validate.json';

export const USAGE = `Usage: delivery-validate [options] FILE|DIR|- ...

Validates Kubernetes manifests offline with the platform's engine. Directories are searched recursively
for *.yaml, *.yml and *.json; "-" reads standard input. Documents are read, validated and reported one at
a time, in input order.

Options:
  --version V              Kubernetes version, ${SUPPORTED_K8S_VERSIONS[0]}..${SUPPORTED_K8S_VERSIONS.at(-1)} (default: "version" in ${CONFIG_FILE}, else the newest)
  -o, --output FORMAT      ${OUTPUT_FORMATS.join(', ')} (default text)
  --strict                 unknown fields are errors, not warnings
  --skip KIND,...          do not validate these kinds (reported as skipped)
  --reject KIND,...        resources of these kinds are errors
  --ignore-missing-schemas skip resources of kinds no schema or --crd describes
  --crd FILE               a CustomResourceDefinition to validate its kinds against (repeatable)
  --version-for GLOB=V     files whose path matches GLOB (** any folders, * one segment) validate at
                           version V (repeatable, first match wins; the generated repository's
                           ${CONFIG_FILE} maps each environment's folders this way)
  --severity LEVEL         report results of this severity and above: error, warning, info (default info)
  --workers N              validate files on N worker threads, results still in input order (default 1)
  --argocd DIR             also check the generated repository checked out at DIR against Argo CD's
                           rules: project permissions (auto-created Namespace included), roots
                           reachable from the bootstrap, one owner per object (repeatable)
  --config FILE            options file (default ./${CONFIG_FILE} when present)
  -h, --help               this text

Exit status: 0 every resource valid, 1 some resource invalid or an Argo CD finding, 2 usage error, 3 an input could not be read.`;

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

function versionRule(value: string): { glob: string; version: string } {
  const at = value.lastIndexOf('=');
  const rule = { glob: value.slice(0, at), version: value.slice(at + 1) };
  if (at <= 0 || !isSupportedVersion(rule.version)) {
    throw new UsageError(`--version-for takes GLOB=VERSION with a version of ${SUPPORTED_K8S_VERSIONS.join(', ')}`);
  }
  return rule;
}

function kinds(value: string): string[] {
  return value
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, not "${value}"`);
  }
  return value as T;
}

/**
 * Parses argv (without node and script), after the options of the config file (`configArgs`, already
 * flags); throws UsageError with the reason. The command line wins over the file for single values.
 */
export function parseCliArgs(argv: readonly string[], configArgs: readonly string[] = []): CliArgs | 'help' {
  const args: CliArgs = {
    version: SUPPORTED_K8S_VERSIONS[SUPPORTED_K8S_VERSIONS.length - 1] ?? '',
    output: 'text',
    strict: false,
    skip: new Set(),
    reject: new Set(),
    ignoreMissingSchemas: false,
    severity: 'info',
    crdFiles: [],
    versionFor: [],
    workers: 1,
    argocd: [],
    inputs: [],
  };
  const all = [...configArgs, ...argv];
  for (let i = 0; i < all.length; i++) {
    const arg = all[i] ?? '';
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = (): string => {
      const v = inline ?? all[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === '--help' || flag === '-h') return 'help';
    else if (flag === '--version') args.version = value();
    else if (flag === '--output' || flag === '-o') args.output = oneOf(flag, value(), OUTPUT_FORMATS);
    else if (flag === '--strict') args.strict = true;
    else if (flag === '--skip') for (const k of kinds(value())) args.skip.add(k);
    else if (flag === '--reject') for (const k of kinds(value())) args.reject.add(k);
    else if (flag === '--ignore-missing-schemas') args.ignoreMissingSchemas = true;
    else if (flag === '--crd') args.crdFiles.push(value());
    else if (flag === '--version-for') args.versionFor.push(versionRule(value()));
    else if (flag === '--argocd') args.argocd.push(value());
    else if (flag === '--severity') args.severity = oneOf(flag, value(), SEVERITIES);
    else if (flag === '--workers') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1 || n > 256) throw new UsageError('--workers must be an integer from 1 to 256');
      args.workers = n;
    } else if (flag.startsWith('-') && flag !== '-') throw new UsageError(`unknown option ${flag}`);
    else args.inputs.push(arg);
  }
  if (!isSupportedVersion(args.version)) {
    throw new UsageError(`--version must be one of ${SUPPORTED_K8S_VERSIONS.join(', ')}`);
  }
  if (args.inputs.length === 0 && args.argocd.length === 0)
    throw new UsageError('no manifest file given (use - for standard input)');
  if (args.inputs.filter((i) => i === '-').length > 1) throw new UsageError('- (standard input) can be given once');
  return args;
}

/**
 * The options of a config file as flags, for parseCliArgs to check like any other:
 * `{"version": "1.29", "strict": true, "skip": ["Secret"], "ignoreMissingSchemas": true}`.
 */
export function configFileArgs(json: string, file: string): string[] {
  let config: unknown;
  try {
    config = JSON.parse(json);
  } catch (error) {
    throw new UsageError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new UsageError(`${file}: expected a JSON object`);
  }
  const out: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    const flag = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    if (!/^--[a-z][a-z-]*$/.test(flag) || flag === '--help' || flag === '--config') {
      throw new UsageError(`${file}: unknown option "${key}"`);
    }
    if (value === true) out.push(flag);
    else if (value === false) continue;
    else if (typeof value === 'string' || typeof value === 'number') out.push(`${flag}=${value}`);
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
      for (const v of value) out.push(`${flag}=${v}`);
    } else throw new UsageError(`${file}: "${key}" must be a string, number, boolean or list of strings`);
  }
  return out;
}
