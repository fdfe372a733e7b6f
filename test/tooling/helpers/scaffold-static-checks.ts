/**
 * The static checks of `npm test` (`npm run typecheck`, `npm run lint`'s ESLint and Prettier) on a scaffolded copy
 * of the checkout, in one process (test/tooling/domain-scaffold.test.ts): the TypeScript programs of the copy's two
 * projects (tsconfig.json, and web/tsconfig.json for the web app and its tests), each built once, give both the type
 * errors `tsc` reports (of the files the scaffold can affect: `affected`) and the type information ESLint's typed rules
 * read (typescript-eslint's `programs`, instead of
 * a project service building them again); ESLint and Prettier look only at the files named. Usage:
 * `node --import tsx scaffold-static-checks.ts <copy> <file>...`; prints each problem found and exits 1 when there is
 * one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import prettier from 'prettier';
import ts from 'typescript';

/** The TypeScript projects `npm run typecheck` checks: the server's, and the web app's with its jsdom tests. */
const PROJECTS = ['tsconfig.json', 'web/tsconfig.json'];

function program(root: string, project: string, touched: ReadonlySet<string>) {
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
  const checked = affected(built, touched);
  const diagnostics = [
    ...parsed.errors,
    ...built.getConfigFileParsingDiagnostics(),
    ...built.getOptionsDiagnostics(),
    ...built.getGlobalDiagnostics(),
    ...built.getSourceFiles().flatMap((file) => built.getSyntacticDiagnostics(file)),
    ...checked.flatMap((file) => built.getSemanticDiagnostics(file)),
  ];
  return {
    program: built,
    checked: checked.length,
    errors: diagnostics.map((d) => ts.formatDiagnostic(d, host).trim()),
  };
}

/**
 * The files of `built` whose types the scaffold can change: the files it touched and every file that imports one of
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

async function lint(root: string, programs: ts.Program[], files: string[]): Promise<string[]> {
  const eslint = new ESLint({
    cwd: root,
    warnIgnored: false,
    overrideConfig: { languageOptions: { parserOptions: { programs, projectService: false } } },
  });
  const results = await eslint.lintFiles(files.filter((f) => /\.tsx?$/.test(f)));
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

async function main([root, ...files]: string[]): Promise<number> {
  if (!root || files.length === 0) throw new Error('usage: scaffold-static-checks.ts <copy> <file>...');
  const touched = new Set(files.map((f) => path.resolve(root, f)));
  const built = PROJECTS.map((project) => program(root, project, touched));
  const programs = built.map((b) => b.program);
  const errors = built.flatMap((b) => b.errors);
  const problems = [...errors, ...(await lint(root, programs, files)), ...(await unformatted(root, files))];
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
