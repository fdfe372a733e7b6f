import { ConditionError, meets, parseCondition } from '../../../src/verification/success-condition';

describe('success conditions', () => {
  it.each([
    ['result < 0.01', '<', 0.01],
    ['  result<=1e-3 ', '<=', 0.001],
    ['result > -5', '>', -5],
    ['result >= .5', '>=', 0.5],
    ['result == 1', '==', 1],
    ['result != 0', '!=', 0],
  ])('parses %j', (text, op, threshold) => {
    expect(parseCondition(text)).toEqual({ op, threshold });
  });

  it.each([
    'result < 0.01 && result > 0',
    'result = 1',
    'value < 1',
    '0.01 > result',
    'result < abs(1)',
    'result < 1; process.exit()',
    'result < ',
    'result < 1e999',
    '',
  ])('refuses %j', (text) => {
    expect(() => parseCondition(text)).toThrow(ConditionError);
  });

  it('compares and never passes NaN', () => {
    const below = parseCondition('result < 0.01');
    expect(meets(below, 0.001)).toBe(true);
    expect(meets(below, 0.01)).toBe(false);
    expect(meets(below, 0.5)).toBe(false);
    expect(meets(below, NaN)).toBe(false);
    expect(meets(parseCondition('result != 0'), NaN)).toBe(false);
    expect(meets(parseCondition('result >= 2'), 2)).toBe(true);
  });
});
