/**
 * The static checks of `npm test` in one process: the TypeScript programs of the two projects (tsconfig.json, and
 * web/tsconfig.json for the web app and its jsdom tests), each built once, give both the errors `tsc` reports and the
 * type information ESLint's typed rules read (typescript-eslint's `programs`, instead of its project service building
 * both programs again: about 30 CPU-seconds less a run, docs/CONTRIBUTING-SPINE.md). Usage:
 * - `node --import tsx scripts/static-checks.ts`: the checkout, every file (`scripts/checks.sh`, which runs Prettier
 *   over the whole tree beside it);
 * - `node --import tsx scripts/static-checks.ts <root> <file>...`: a copy of the checkout in which only the named files
 *   changed (test/tooling/domain-scaffold.test.ts): the types of those files and of every file importing them, ESLint
 *   and Prettier on the named files.
 * Prints each problem found and exits 1 when there is one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import prettier from 'prettier';
import ts from 'typescript';

/** The TypeScript projects `npm run typecheck` checks: the server's, and the web app's with its jsdom tests. */
const PROJECTS = ['tsconfig.json', 'web/tsconfig.json'];

/** `project`'s program, and its errors in the files `checked` picks (all of them when it is not given). */
function program(root: string, project: string, checked?: (built: ts.Program) => readonly ts.SourceFile[]) {
  const configFile = path.join(root, project);
  const config = ts.readConfigFile(configFile, (file) => ts.sys.readFile(file));
  const parsed = ts.parseJsonConfigFileContent(
    config.config,
    ts.sys,
    path.dirname(configFile),
    { noEmit: true },
    configFile,
  );
  const built = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: parsed.errors,
  });
  const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  };
  const files = checked?.(built) ?? built.getSourceFiles();
  const diagnostics = [
    ...parsed.errors,
    ...built.getConfigFileParsingDiagnostics(),
    ...built.getOptionsDiagnostics(),
    ...built.getGlobalDiagnostics(),
    ...built.getSourceFiles().flatMap((file) => built.getSyntacticDiagnostics(file)),
    ...files.flatMap((file) => built.getSemanticDiagnostics(file)),
  ];
  return {
    program: built,
    checked: files.length,
    errors: diagnostics.map((d) => ts.formatDiagnostic(d, host).trim()),
  };
}

/**
 * The files of `built` whose types a change of `touched` can change: those files and every file that imports one of
 * them, directly or through others (a file's type errors depend only on it and what it imports, and the scaffold
 * declares no globals). Checking only these gives the errors checking every file gives, in a fraction of the time.
 */
function affected(built: ts.Program, touched: ReadonlySet<string>): ts.SourceFile[] {
  const options = built.getCompilerOptions();
  const cache = ts.createModuleResolutionCache(built.getCurrentDirectory(), (f) => f, options);
  const importers = new Map<string, Set<string>>();
  const ours = built.getSourceFiles().filter((f) => !f.isDeclarationFile && !f.fileName.includes('/node_modules/'));
  for (const file of ours) {
    for (const { fileName: specifier } of ts.preProcessFile(file.text, true, true).importedFiles) {
      const target = ts.resolveModuleName(specifier, file.fileName, options, ts.sys, cache).resolvedModule;
      if (!target || target.isExternalLibraryImport) continue;
      const name = path.resolve(target.resolvedFileName);
      importers.set(name, (importers.get(name) ?? new Set()).add(path.resolve(file.fileName)));
    }
  }
  const reached = new Set<string>(touched);
  const queue = [...touched];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const importer of importers.get(next) ?? []) {
      if (reached.has(importer)) continue;
      reached.add(importer);
      queue.push(importer);
    }
  }
  return ours.filter((f) => reached.has(path.resolve(f.fileName)));
}

/** ESLint's problems in `patterns` (files or folders, as on its command line), its typed rules reading `programs`. */
async function lint(root: string, programs: ts.Program[], patterns: string[]): Promise<string[]> {
  const eslint = new ESLint({
    cwd: root,
    warnIgnored: false,
    overrideConfig: { languageOptions: { parserOptions: { programs, projectService: false } } },
  });
  const results = await eslint.lintFiles(patterns);
  return results.flatMap((r) =>
    r.messages.map((m) => `${path.relative(root, r.filePath)}:${m.line}:${m.column} ${m.ruleId ?? ''} ${m.message}`),
  );
}

/** The files Prettier formats (as `prettier --check`, leaving out what .prettierignore names) that it would change. */
async function unformatted(root: string, files: string[]): Promise<string[]> {
  const checked = await Promise.all(
    files.map(async (file) => {
      const filepath = path.join(root, file);
      if ((await prettier.getFileInfo(filepath, { ignorePath: path.join(root, '.prettierignore') })).ignored) return [];
      const options = await prettier.resolveConfig(filepath);
      const formatted = await prettier.check(fs.readFileSync(filepath, 'utf8'), { ...options, filepath });
      return formatted ? [] : [`${file}: not formatted as prettier formats it`];
    }),
  );
  return checked.flat();
}

async function main(args: string[]): Promise<number> {
  const [root = process.cwd(), ...files] = args;
  const touched = new Set(files.map((f) => path.resolve(root, f)));
  const only = files.length === 0 ? undefined : (built: ts.Program) => affected(built, touched);
  const built = PROJECTS.map((project) => program(root, project, only));
  const programs = built.map((b) => b.program);
  const problems = [
    ...built.flatMap((b) => b.errors),
    ...(await lint(root, programs, files.length === 0 ? ['.'] : files.filter((f) => /\.tsx?$/.test(f)))),
    ...(files.length === 0 ? [] : await unformatted(root, files)),
  ];
  for (const problem of problems) process.stdout.write(`${problem}\n`);
  process.stderr.write(`type-checked ${built.map((b, i) => `${b.checked} files of ${PROJECTS[i]}`).join(', ')}\n`);
  return problems.length === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(2);
  },
);
