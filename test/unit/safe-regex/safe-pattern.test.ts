/** The linear-time engine for user-supplied patterns (issue 16 item 2): what it runs, what it refuses and why. */
import { compileSafePattern, UnsupportedPattern, unsupportedFeature } from '../../../src/safe-regex';

describe('compileSafePattern runs ECMA-262 patterns with their meaning', () => {
  it.each([
    ['^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', 'my-name', 'My_Name'],
    ['^\\d{3}-\\d{4}$', '555-1234', '5551234'],
    ['^(?<year>\\d{4})-\\d{2}$', '2024-05', '24-05'],
    ['^\\u0041+$', 'AAA', 'aaa'],
    ['^[^]$', '\n', 'ab'],
    ['^a/b$', 'a/b', 'ab'],
    ['^\\p{Lu}+$', 'ÄBC', 'abc'],
    ['^\\u{1F600}$', '😀', ':)'],
    ['cat', 'concatenate', 'dog'],
  ])('%s matches %j, not %j', (source, yes, no) => {
    const pattern = compileSafePattern(source);
    expect(pattern.test(yes)).toBe(true);
    expect(pattern.test(no)).toBe(false);
  });

  it('takes the Go (RE2) syntax the API server itself compiles CRD patterns with', () => {
    expect(compileSafePattern('(?i)^abc$').test('ABC')).toBe(true);
    expect(compileSafePattern('^abc\\z').test('abc')).toBe(true);
    expect(compileSafePattern('^abc\\z').test('abcd')).toBe(false);
  });

  it('caches compiled patterns and tells them apart by their source (ajv keys them by toString)', () => {
    expect(compileSafePattern('^a$')).toBe(compileSafePattern('^a$'));
    expect(String(compileSafePattern('^a$'))).not.toBe(String(compileSafePattern('^b$')));
  });
});

describe('compileSafePattern refuses what a linear-time engine cannot run, saying why', () => {
  it.each([
    ['(a)\\1', /backreferences are not supported/],
    ['(?<x>a)\\k<x>', /named backreferences are not supported/],
    ['^(?=.*\\d)[a-z\\d]+$', /lookaheads are not supported/],
    ['^(?!admin$).*', /lookaheads are not supported/],
    ['(?<=\\$)\\d+', /lookbehinds are not supported/],
    ['(?<!-)x', /lookbehinds are not supported/],
    ['a{2,1}', /not a valid regular expression/],
    ['(unclosed', /not a valid regular expression/],
    ['x'.repeat(5000), /at most 4096 characters/],
  ])('%s', (source, reason) => {
    expect(() => compileSafePattern(source)).toThrow(UnsupportedPattern);
    expect(() => compileSafePattern(source)).toThrow(reason);
  });

  it('does not mistake escapes and character classes for those constructs', () => {
    expect(unsupportedFeature('[(?=]')).toBeUndefined();
    expect(unsupportedFeature('\\(?=')).toBeUndefined();
    expect(unsupportedFeature('[\\1]')).toBeUndefined();
    expect(unsupportedFeature('\\\\1')).toBeUndefined();
    expect(unsupportedFeature('a\\\\\\1')).toBe('backreference');
    expect(unsupportedFeature('(?<name>x)')).toBeUndefined();
  });
});
