/** delivery-validate's `--version-for GLOB=VERSION` (issue 26 item 7): each environment's folders at its version. */
import { parseCliArgs, UsageError } from '../../../src/validation/cli-args';
import { globRegExp, versionOf } from '../../../src/validation/cli/source-validators';

describe('--version-for', () => {
  const args = parseCliArgs([
    '--version-for',
    'tenants/*/dev/**=1.27',
    '--version-for=tenants/*/prod/**=1.31',
    '--version',
    '1.29',
    '.',
  ]);
  if (args === 'help') throw new Error('unexpected help');
  const at = (name: string) => versionOf(args, { name, file: `/work/clone/${name}` });

  it('picks the first glob matching the path, else --version', () => {
    expect(at('tenants/acme/dev/web/deployment.yaml')).toBe('1.27');
    expect(at('tenants/acme/prod/web/deployment.yaml')).toBe('1.31');
    expect(at('tenants/acme/staging/web/deployment.yaml')).toBe('1.29');
    expect(at('applications/acme/dev/web.yaml')).toBe('1.29');
  });

  it('keeps * within one folder and escapes the rest', () => {
    expect(globRegExp('tenants/*/dev/**').test('tenants/a/b/dev/x.yaml')).toBe(false);
    expect(globRegExp('a.yaml').test('axyaml')).toBe(false);
    expect(globRegExp('**/kustomization.yaml').test('repo/tenants/a/kustomization.yaml')).toBe(true);
  });

  it('refuses a rule without a supported version', () => {
    expect(() => parseCliArgs(['--version-for', 'tenants/**=1.99', '.'])).toThrow(UsageError);
    expect(() => parseCliArgs(['--version-for', '=1.29', '.'])).toThrow(UsageError);
  });
});
