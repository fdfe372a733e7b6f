import fs from 'node:fs';
import path from 'node:path';

/**
 * No file over 400 lines without a comment at its top saying why (issue 45): a long file is a choice, written down
 * where the next reader meets it. Generated files (`*.generated.ts`) say so instead.
 */
const ROOT = path.resolve(__dirname, '../../..');
const FOLDERS = [
  'api',
  'activities',
  'bench',
  'cli',
  'client',
  'migrations',
  'scripts',
  'src',
  'test',
  'web',
  'workers',
  'workflows',
];
const LIMIT = 400;

function codeFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|tsx|js|mjs)$/.test(f) && !f.split(path.sep).includes('node_modules'))
    .map((f) => path.join(dir, f));
}

/** Within the limit, or opening with `// Over 400 lines: <why>`. */
function acceptable(text: string): boolean {
  const lines = text.split('\n');
  return lines.length <= LIMIT || /^\/\/ Over 400 lines: \S/.test(lines[0] ?? '');
}

it('has no file over 400 lines without a comment at its top saying why', () => {
  const unexplained = FOLDERS.flatMap(codeFiles)
    .filter((file) => !file.endsWith('.generated.ts'))
    .filter((file) => !acceptable(fs.readFileSync(path.join(ROOT, file), 'utf8')));
  expect(unexplained).toEqual([]);
});

it('tells a long file that says why from one that does not', () => {
  const body = Array.from({ length: LIMIT + 1 }, () => 'x;').join('\n');
  expect(acceptable(body)).toBe(false);
  expect(acceptable(`// Over 400 lines: one workflow's handlers share its state.\n${body}`)).toBe(true);
  expect(acceptable(`// Over 400 lines:\n${body}`)).toBe(false);
  expect(acceptable(body.split('\n').slice(0, LIMIT).join('\n'))).toBe(true);
});
