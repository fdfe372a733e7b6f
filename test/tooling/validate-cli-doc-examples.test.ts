/**
 * Every example command of docs/validate-cli.md, run as written (issue 50: "a test runs each documented example of
 * docs/cli.md and docs/validate-cli.md"), in a repository the platform generates with a `k8s/` folder and an
 * `app.yaml` beside it, as the examples assume. However an example starts the command (`npx delivery-validate`,
 * `npm run validate --`, `node .../delivery-validate.js`, or the container image whose ENTRYPOINT is that file), it
 * runs the package's bin with the example's own arguments, standard input and redirection; then again as
 * `delivery validate`, which must answer the same bytes. Each must succeed (exit 0: the generated repository is
 * valid), and a machine format must parse.
 */
import fs from 'node:fs';
import path from 'node:path';
import { renderAll } from '../../src/gitops/manifests';
import { repoRoot } from '../../src/paths';
import { scratchDir } from '../helpers/scratch-dir';
import { ACCEPTANCE, deliveryModel } from './gitops/delivery-models';
import { cli, ensureBuilt } from './helpers/built-cli';

export interface DocExample {
  /** As written in the document. */
  line: string;
  /** The command's own arguments. */
  args: string[];
  /** A file piped to standard input (`cat FILE | ...`). */
  stdin?: string;
  /** Where standard output is redirected (`> FILE`). */
  stdout?: string;
}

/** The command's entry points in the document: each is followed by the command's arguments. */
const ENTRY =
  /(?:^|\s)(?:npx delivery-validate|npm run validate --|node \S*delivery-validate\.js|delivery-validate)(?=\s|$)/;

/** `delivery-validate ...` invocations of the document: in shell and YAML code blocks, and in inline code. */
export function validateExamples(markdown: string): DocExample[] {
  const blocks = [...markdown.matchAll(/```(sh|yaml)\n([\s\S]*?)```/g)].flatMap((m) => m[2]!.split('\n'));
  // Inline code may wrap across lines of the paragraph.
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/\n(?!\n)/g, ' ');
  const inline = [...prose.matchAll(/`([^`]*delivery-validate [^`]*)`/g)].map((m) => m[1]!);
  const examples: DocExample[] = [];
  for (const raw of [...blocks, ...inline]) {
    const line = raw
      .replace(/\s+#.*$/, '')
      .replace(/^\s*(?:- run:|-)\s+/, '')
      .trim();
    // Building the image is not a run of the command.
    if (line.startsWith('docker build') || !ENTRY.test(line)) continue;
    const piped = /^cat (\S+) \| (.*)$/.exec(line);
    const command = piped ? piped[2]! : line;
    const redirected = /^(.*?) > (\S+)$/.exec(command);
    const invocation = redirected ? redirected[1]! : command;
    const match = ENTRY.exec(invocation)!;
    const args = invocation
      .slice(match.index + match[0].length)
      .trim()
      .split(/\s+/)
      .filter((a) => a !== '');
    examples.push({
      line,
      args,
      ...(piped ? { stdin: piped[1]! } : {}),
      ...(redirected ? { stdout: redirected[2]! } : {}),
    });
  }
  return examples;
}

/** A repository as the platform writes it (with its .delivery-validate.json), plus `k8s/` and `app.yaml`. */
function exampleRepository(): string {
  const dir = scratchDir('validate-doc-');
  for (const [file, text] of renderAll(deliveryModel(ACCEPTANCE))) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  const deployment = [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: web',
    'spec:',
    '  selector:',
    '    matchLabels: { app: web }',
    '  template:',
    '    metadata:',
    '      labels: { app: web }',
    '    spec:',
    '      containers:',
    '        - name: web',
    '          image: registry.example.com/web:1.4.0',
    '',
  ].join('\n');
  fs.mkdirSync(path.join(dir, 'k8s'));
  fs.writeFileSync(path.join(dir, 'k8s', 'deployment.yaml'), deployment);
  fs.writeFileSync(
    path.join(dir, 'k8s', 'service.yaml'),
    'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: { app: web }\n  ports: [{ port: 80 }]\n',
  );
  fs.writeFileSync(path.join(dir, 'app.yaml'), deployment);
  return dir;
}

/** What a machine reads of the output: each format parses as its consumers expect. */
function parses(args: string[], stdout: string): boolean {
  const format = args[args.indexOf('-o') + 1];
  if (!args.includes('-o') || format === 'text' || format === 'tap')
    return stdout.trim() !== '' || args.includes('--argocd');
  try {
    if (format === 'json')
      return stdout
        .trim()
        .split('\n')
        .every((l) => typeof JSON.parse(l) === 'object');
    if (format === 'sarif') return (JSON.parse(stdout) as { version: string }).version === '2.1.0';
    if (format === 'junit') return /^<\?xml[^>]*>\s*<testsuites[\s>]/.test(stdout) && stdout.includes('</testsuites>');
  } catch {
    return false;
  }
  return false;
}

beforeAll(ensureBuilt, 300_000);

it('runs every example of docs/validate-cli.md as written: exit 0 on a valid repository, parseable output', () => {
  const examples = validateExamples(fs.readFileSync(path.join(repoRoot(), 'docs', 'validate-cli.md'), 'utf8'));
  // The install lines, the container's runs, the two CI jobs and the examples in the prose.
  expect(examples.map((e) => e.line)).toEqual(
    expect.arrayContaining([
      'npx delivery-validate --version 1.29 k8s/',
      'cat app.yaml | docker run --rm -i delivery-validate -o json -',
      'node .delivery/dist/src/validation/cli/delivery-validate.js --version 1.29 --strict -o sarif k8s/ > validate.sarif',
      'node /app/dist/src/validation/cli/delivery-validate.js --version 1.29 -o junit k8s/ > validate-junit.xml',
      'npx delivery-validate .',
      'delivery-validate --argocd . .',
    ]),
  );
  expect(examples.length).toBeGreaterThanOrEqual(9);
  const repo = exampleRepository();
  const bin = path.join(repoRoot(), 'bin', 'delivery.js');
  for (const example of examples) {
    const input = example.stdin ? fs.readFileSync(path.join(repo, example.stdin), 'utf8') : '';
    const run = cli(example.args, { cwd: repo, input });
    const where = `${example.line}: exit ${run.status} ${run.stderr.slice(0, 300)}`;
    expect([where, run.status]).toEqual([where, 0]);
    expect([where, parses(example.args, run.stdout)]).toEqual([where, true]);
    if (example.stdout) fs.writeFileSync(path.join(repo, example.stdout), run.stdout);
    // `delivery validate` is the same command (docs/cli.md): the same bytes and exit code.
    const alias = cli(['validate', ...example.args], { cwd: repo, input, command: bin });
    expect([where, alias.status, alias.stdout, alias.stderr]).toEqual([where, run.status, run.stdout, run.stderr]);
  }
  // What the CI jobs upload is what the consumers read.
  expect(parses(['-o', 'sarif'], fs.readFileSync(path.join(repo, 'validate.sarif'), 'utf8'))).toBe(true);
  expect(parses(['-o', 'junit'], fs.readFileSync(path.join(repo, 'validate-junit.xml'), 'utf8'))).toBe(true);
}, 300_000);
