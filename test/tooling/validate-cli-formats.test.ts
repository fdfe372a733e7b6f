/**
 * delivery-validate's report formats, each read by a real consumer: JUnit XML by junit2json (xml2js), TAP by
 * tap-parser (the parser of node-tap), SARIF checked against the SARIF 2.1.0 JSON schema (draft-04, shipped
 * in @microsoft/jest-sarif as lib/schemas/sarif-2.1.0-rtm.5.json, read from node_modules).
 */
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { parse as parseJunit, type TestSuite, type TestSuites } from 'junit2json';
import { validateXML } from 'xmllint-wasm';
import { Parser } from 'tap-parser';
import { repoRoot } from '../../src/paths';
import { CORPUS } from './validation/corpus';
import { cli, ensureBuilt } from './helpers/built-cli';

const F = path.join(CORPUS, 'kubeconform', 'fixtures');
const FILES = [path.join(F, 'valid.yaml'), path.join(F, 'invalid.yaml'), path.join(F, 'multi_valid.yaml')];
const ARGS = ['--version', '1.29', '--skip', 'Service', ...FILES, path.join(F, 'no-such-file.yaml')];
const SUMMARY =
  'Summary: 4 files, 1 unreadable, 8 resources (4 valid, 1 invalid, 3 skipped); 2 errors, 1 warning, 15 info';

beforeAll(ensureBuilt, 300_000);

describe('text', () => {
  it('groups results by file and resource, closes each file with its verdict, ends with the summary line', () => {
    const run = cli(ARGS);
    expect(run.status).toBe(3);
    expect(run.lines.filter((l) => !l.startsWith('    '))).toEqual([
      FILES[0],
      '  ReplicationController/bob (line 1)',
      `${FILES[0]}: valid (0 errors, 0 warnings, 5 info)`,
      FILES[1],
      '  ReplicationController/bob (line 1)',
      `${FILES[1]}: INVALID (2 errors, 1 warning, 0 info)`,
      FILES[2],
      '  Service/redis-master (line 1) skipped: kind Service is skipped (--skip)',
      '  ReplicationController/redis-master (line 19)',
      '  Service/redis-slave (line 56) skipped: kind Service is skipped (--skip)',
      '  ReplicationController/redis-slave (line 73)',
      '  Service/frontend (line 118) skipped: kind Service is skipped (--skip)',
      '  ReplicationController/frontend (line 136)',
      `${FILES[2]}: valid (0 errors, 0 warnings, 10 info)`,
      `${path.join(F, 'no-such-file.yaml')}: UNREADABLE (no such file or directory)`,
      SUMMARY,
    ]);
    expect(run.stdout).toContain('    error   spec.replicas: invalid type: expected integer, got string "asd\\""');
    expect(run.stdout).not.toContain('\u001b[');
  });
});

describe('json', () => {
  it('one object per file per line, the validate route body plus file; the summary line on stderr', () => {
    const run = cli(['-o', 'json', ...ARGS]);
    const lines = run.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => Object.keys(l).sort())).toEqual([
      ['file', 'results', 'summary', 'valid'],
      ['file', 'results', 'summary', 'valid'],
      ['file', 'results', 'summary', 'valid'],
      ['file', 'results', 'summary', 'unreadable', 'valid'],
    ]);
    expect(lines[1]).toMatchObject({ valid: false, summary: { errors: 2, warnings: 1, info: 0 } });
    expect(run.stderr).toBe(`${SUMMARY}\n`);
  });
});

/** Errors of `xml` against the JUnit schema of test/fixtures/junit (none when valid). */
async function junitSchemaErrors(xml: string): Promise<string[]> {
  const schema = fs.readFileSync(path.join(repoRoot(), 'test', 'fixtures', 'junit', 'junit.xsd'), 'utf8');
  const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [schema] });
  return result.errors.map((e) => e.rawMessage);
}

describe('junit', () => {
  it('is valid against the JUnit schema, with the counts of each suite', async () => {
    const run = cli(['-o', 'junit', ...ARGS]);
    expect(await junitSchemaErrors(run.stdout)).toEqual([]);
    const report = (await parseJunit(run.stdout)) as TestSuites;
    expect(report.testsuite?.map((s) => [s.tests, s.failures, s.errors, s.skipped])).toEqual([
      [1, 0, 0, 0],
      [1, 1, 0, 0],
      [6, 0, 0, 3],
      [1, 0, 1, 0],
    ]);
    expect(await junitSchemaErrors(run.stdout.replace('tests="1"', 'tests="x"'))).not.toEqual([]);
  });

  it('parses as JUnit: a suite per file, a case per resource, failures, skips and the unreadable file as an error', async () => {
    const run = cli(['-o', 'junit', ...ARGS]);
    const report = (await parseJunit(run.stdout)) as TestSuites;
    const suites = report.testsuite ?? [];
    expect(suites.map((s: TestSuite) => [s.name, s.testcase?.length])).toEqual([
      [FILES[0], 1],
      [FILES[1], 1],
      [FILES[2], 6],
      [path.join(F, 'no-such-file.yaml'), 1],
    ]);
    const invalid = suites[1]?.testcase?.[0];
    expect(invalid?.failure?.[0]?.message).toBe('required field "template" is missing');
    expect(invalid?.failure?.[0]?.inner).toContain(
      'error spec.replicas: invalid type: expected integer, got string "asd\\""',
    );
    expect(suites[2]?.testcase?.filter((c) => c.skipped).map((c) => c.name)).toEqual([
      'Service/redis-master',
      'Service/redis-slave',
      'Service/frontend',
    ]);
    expect(suites[3]?.testcase?.[0]?.error?.[0]?.message).toBe('no such file or directory');
    expect(run.stderr).toBe(`${SUMMARY}\n`);
  });

  it('escapes markup and drops characters XML cannot hold', async () => {
    const input = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "<a&b>"\n  "x\\u0001<y>": 1\n';
    const report = (await parseJunit(cli(['-o', 'junit', '--version', '1.29', '-'], { input }).stdout)) as TestSuites;
    const testcase = report.testsuite?.[0]?.testcase?.[0];
    expect(testcase?.name).toBe('ConfigMap/<a&b>');
  });
});

describe('tap', () => {
  it('parses as TAP 14 with a plan, failures, skips and the summary comment', () => {
    const run = cli(['-o', 'tap', ...ARGS]);
    const events = Parser.parse(run.stdout);
    const complete = events.find((e) => e[0] === 'complete')?.[1] as {
      ok: boolean;
      count: number;
      pass: number;
      fail: number;
      skip: number;
      plan: { start: number; end: number };
    };
    expect(complete).toMatchObject({ ok: false, count: 9, pass: 7, fail: 2, skip: 3, plan: { start: 1, end: 9 } });
    const failures = events.filter((e) => e[0] === 'assert' && !(e[1] as { ok: boolean }).ok);
    expect(failures.map((e) => (e[1] as { name: string }).name)).toEqual([
      `${FILES[1]}: ReplicationController/bob`,
      path.join(F, 'no-such-file.yaml'),
    ]);
    const diag = (failures[0]?.[1] as { diag: { line: number; results: unknown[] } }).diag;
    expect(diag.line).toBe(1);
    expect(diag.results).toContainEqual({
      severity: 'error',
      path: 'spec.template',
      message: 'required field "template" is missing',
    });
    expect(run.lines.at(-1)).toBe(`# ${SUMMARY}`);
  });
});

describe('sarif', () => {
  const schemaFile = path.join(repoRoot(), 'node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
  const sarifValidator = (): ((data: unknown) => boolean) & { errors?: unknown } => {
    // The schema's patterns are ECMAScript regexes without the u flag (one has a lone `]`).
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    return ajv.compile(JSON.parse(fs.readFileSync(schemaFile, 'utf8')) as object);
  };

  it('is valid against the SARIF 2.1.0 schema, a result per finding located at its document', () => {
    const run = cli(['-o', 'sarif', ...ARGS]);
    const log = JSON.parse(run.stdout) as {
      runs: { results: { ruleId: string; level: string; message: { text: string }; locations: unknown[] }[] }[];
    };
    const validate = sarifValidator();
    expect(validate(log) || validate.errors).toBe(true);
    const results = log.runs[0]?.results ?? [];
    expect(results).toHaveLength(18);
    expect(results.filter((r) => r.level === 'error').map((r) => r.message.text)).toEqual([
      'ReplicationController/bob spec.template: required field "template" is missing',
      'ReplicationController/bob spec.replicas: invalid type: expected integer, got string "asd\\""',
    ]);
    expect(results[5]?.locations).toEqual([
      {
        physicalLocation: { artifactLocation: { uri: FILES[1] }, region: { startLine: 1 } },
        logicalLocations: [{ fullyQualifiedName: 'ReplicationController/bob.spec.template' }],
      },
    ]);
    expect(run.stderr).toBe(`${SUMMARY}\n`);
  });

  it('is valid with no results at all', () => {
    const run = cli(['-o', 'sarif', '--severity', 'error', '--version', '1.29', FILES[0] ?? '']);
    const validate = sarifValidator();
    expect(validate(JSON.parse(run.stdout)) || validate.errors).toBe(true);
    expect(run.status).toBe(0);
  });
});

describe('`delivery validate` is delivery-validate', () => {
  // Its own options reach the validator: `-o` is not taken for the `delivery` program's global output option.
  const bin = path.join(repoRoot(), 'bin', 'delivery.js');
  it.each(['json', 'junit', 'tap', 'sarif', 'text'])('-o %s gives the same bytes and exit code', (format) => {
    const direct = cli(['-o', format, ...ARGS]);
    const alias = cli(['validate', '-o', format, ...ARGS], { command: bin });
    expect([alias.status, alias.stderr]).toEqual([direct.status, direct.stderr]);
    expect(alias.stdout).toBe(direct.stdout);
    expect(direct.stdout.length).toBeGreaterThan(100);
  });
});
