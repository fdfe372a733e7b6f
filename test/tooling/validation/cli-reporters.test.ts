/** The CLI's report formats and its checking policy, in process (the tooling tests read them with real parsers). */
import { applyPolicy, type Policy, type ResourceOutcome } from '../../../src/validation/cli/outcome';
import { reporterFor } from '../../../src/validation/cli/reporters';
import { emptyTotals, summaryLine } from '../../../src/validation/cli/totals';
import type { OutputFormat } from '../../../src/validation/cli-args';
import { engine } from './corpus';

const invalid: ResourceOutcome = {
  resource: 'ConfigMap/a<b>&"c"',
  line: 3,
  status: 'invalid',
  results: [{ severity: 'error', path: 'data', message: 'bad # value\u0001', resource: 'ConfigMap/a<b>&"c"' }],
};

function render(format: OutputFormat, outcomes: ResourceOutcome[], colour = false): string {
  const reporter = reporterFor(format, { colour, toolVersion: '1.2.3' });
  const totals = { ...emptyTotals(), files: 1, resources: outcomes.length };
  return [
    reporter.begin(),
    reporter.file('dir/f.yaml'),
    ...outcomes.map((o) => reporter.resource('dir/f.yaml', o)),
    reporter.endFile('dir/f.yaml', totals),
    reporter.end(totals),
  ].join('');
}

describe('reporters', () => {
  it('json: the results of a file as one object, built as they come', () => {
    const line = JSON.parse(render('json', [invalid, { ...invalid, results: [] }, invalid])) as Record<string, unknown>;
    expect(line).toEqual({
      file: 'dir/f.yaml',
      results: [invalid.results[0], invalid.results[0]],
      valid: true,
      summary: { errors: 0, warnings: 0, info: 0 },
    });
  });

  it('junit: markup escaped, characters XML cannot hold replaced', () => {
    const xml = render('junit', [invalid]);
    expect(xml).toContain('<testcase name="ConfigMap/a&lt;b&gt;&amp;&quot;c&quot;" classname="dir/f.yaml"');
    expect(xml).toContain('<failure message="bad # value\uFFFD" type="error">');
    expect(xml).not.toContain('\u0001');
  });

  it('tap: `#` in a description escaped so it is not a directive, the plan at the end', () => {
    const tap = render('tap', [{ ...invalid, resource: 'ConfigMap/x#SKIP' }]);
    expect(tap.split('\n')).toEqual(
      expect.arrayContaining(['TAP version 14', 'not ok 1 - dir/f.yaml: ConfigMap/x\\#SKIP', '1..1']),
    );
  });

  it('sarif: a result per finding with its rule, level and line', () => {
    const log = JSON.parse(render('sarif', [invalid])) as { runs: { results: unknown[]; tool: unknown }[] };
    expect(log.runs[0]?.results).toEqual([
      expect.objectContaining({
        ruleId: 'k8s-error',
        ruleIndex: 0,
        level: 'error',
        message: { text: 'ConfigMap/a<b>&"c" data: bad # value\u0001' },
      }),
    ]);
    expect(log.runs[0]?.tool).toMatchObject({ driver: { name: 'delivery-validate', version: '1.2.3' } });
  });

  it('text: colours only when asked (stdout a TTY)', () => {
    expect(render('text', [invalid])).not.toContain('\u001b[');
    expect(render('text', [invalid], true)).toContain('\u001b[31merror  \u001b[0m');
  });

  it('the summary line', () => {
    const totals = { files: 2, unreadable: 1, resources: 5, invalid: 1, skipped: 1, errors: 2, warnings: 1, info: 0 };
    expect(summaryLine(totals)).toBe(
      'Summary: 2 files, 1 unreadable, 5 resources (3 valid, 1 invalid, 1 skipped); 2 errors, 1 warning, 0 info',
    );
  });
});

describe('policy, on what the engine reports', () => {
  const policy = (over: Partial<Policy> = {}): Policy => ({
    strict: false,
    skip: new Set(),
    reject: new Set(),
    ignoreMissingSchemas: false,
    severity: 'info',
    ...over,
  });

  async function reportOf(yaml: string) {
    const validate = (await engine()).documentValidator('1.29');
    const [report] = validate({ text: yaml, firstLine: 0 }, 0);
    if (!report) throw new Error('no resource');
    return report;
  }

  it('recognises the engine wording of unknown fields (--strict) and unknown kinds (--ignore-missing-schemas)', async () => {
    const unknownField = await reportOf('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nspec: {}\n');
    expect(applyPolicy(unknownField, 1, policy()).status).toBe('valid');
    expect(applyPolicy(unknownField, 1, policy({ strict: true }))).toMatchObject({
      status: 'invalid',
      results: [{ severity: 'error', message: 'unknown field "spec"' }],
    });
    const unknownKind = await reportOf('apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n');
    expect(applyPolicy(unknownKind, 1, policy()).status).toBe('invalid');
    expect(applyPolicy(unknownKind, 1, policy({ ignoreMissingSchemas: true }))).toMatchObject({
      status: 'skipped',
      skipReason: 'no schema for kind Widget (--ignore-missing-schemas)',
    });
  });
});
