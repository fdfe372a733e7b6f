import type { WaveContext } from '../../../src/verification/check-spec';
import { renderPromql, renderUrl, TemplateError } from '../../../src/verification/check-template';

const wave: WaveContext = {
  orgId: 'org',
  projectSlug: 'shop',
  environment: 'prod',
  tenants: ['acme', 'globex'],
  namespaces: ['shop-acme', 'shop-globex'],
  version: 'v1.2.3',
};

describe('check templates', () => {
  it('renders tenants and namespaces as a regex alternation, version and environment as text', () => {
    expect(
      renderPromql(
        'sum(rate(x{tenant=~"{{tenants}}",namespace=~"{{ namespaces }}",version="{{version}}",env="{{environment}}"}[1m]))',
        wave,
      ),
    ).toBe('sum(rate(x{tenant=~"acme|globex",namespace=~"shop-acme|shop-globex",version="v1.2.3",env="prod"}[1m]))');
  });

  it('escapes regex metacharacters and string quotes so a name matches only itself and cannot end the string', () => {
    const odd = { ...wave, tenants: ['a.b', 'c|d', 'e"}) or vector(1) #'], version: 'v"1\\' };
    expect(renderPromql('x{tenant=~"{{tenants}}",v="{{version}}"}', odd)).toBe(
      'x{tenant=~"a\\\\.b|c\\\\|d|e\\"\\\\}\\\\) or vector\\\\(1\\\\) #",v="v\\"1\\\\"}',
    );
  });

  it('gives a wave without tenants an alternation that matches no value', () => {
    expect(renderPromql('{{tenants}}', { ...wave, tenants: [] })).toBe('$^x');
  });

  it('percent-encodes values in an HTTP check URL', () => {
    expect(
      renderUrl('https://status.example.com/{{environment}}?t={{tenants}}&v={{version}}', {
        ...wave,
        version: 'v1 &x=1',
      }),
    ).toBe('https://status.example.com/prod?t=acme,globex&v=v1%20%26x%3D1');
  });

  it('refuses an unknown or malformed placeholder', () => {
    expect(() => renderPromql('x{a="{{tenant}}"}', wave)).toThrow(new TemplateError('unknown placeholder {{tenant}}'));
    expect(() => renderPromql('x{a="{{version"}', wave)).toThrow(TemplateError);
  });
});
