import { singleSample } from '../../../src/verification/prometheus-answer';

const vector = (...values: string[]) =>
  JSON.stringify({
    status: 'success',
    data: {
      resultType: 'vector',
      result: values.map((v, i) => ({ metric: { i: String(i) }, value: [1700000000.1, v] })),
    },
  });

describe('a Prometheus instant query answer', () => {
  it('gives the value of exactly one series or of a scalar', () => {
    expect(singleSample(vector('0.0042'))).toEqual({ value: 0.0042 });
    expect(
      singleSample(JSON.stringify({ status: 'success', data: { resultType: 'scalar', result: [1, '3'] } })),
    ).toEqual({ value: 3 });
    expect(singleSample(vector('NaN'))).toEqual({ value: NaN });
    expect(singleSample(vector('+Inf'))).toEqual({ value: Infinity });
  });

  it('refuses no sample, several series, a range vector and malformed values with a clear reason', () => {
    expect(singleSample(vector())).toEqual({ error: 'query returned no sample (no series matched)' });
    expect(singleSample(vector('1', '2'))).toEqual({
      error: 'query returned 2 series; aggregate it to one (e.g. sum(...))',
    });
    expect(singleSample(JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: [] } }))).toEqual({
      error: 'query must return one sample (a scalar or an instant vector), got matrix',
    });
    expect(singleSample(vector('12abc'))).toEqual({ error: 'malformed sample value' });
    expect(singleSample(vector(''))).toEqual({ error: 'malformed sample value' });
  });

  it("passes Prometheus's own error on, and refuses what is not its JSON", () => {
    expect(
      singleSample(JSON.stringify({ status: 'error', errorType: 'bad_data', error: 'parse error: unexpected "}"' })),
    ).toEqual({ error: 'query failed: parse error: unexpected "}"' });
    expect(singleSample('<html>login</html>')).toEqual({
      error: 'the metric source answered something that is not a Prometheus JSON answer',
    });
  });
});
