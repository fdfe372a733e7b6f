import { InvalidInput } from '../../../src/errors';
import { parseStrictJson } from '../../../src/webhooks/strict-json';

describe('parseStrictJson', () => {
  it('parses JSON and refuses duplicate keys at any depth', () => {
    expect(parseStrictJson('{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}')).toEqual({
      a: 1,
      b: { a: 2 },
      c: [{ a: 3 }, { a: 4 }],
    });
    expect(() => parseStrictJson('{"timestamp":"old","timestamp":"new"}')).toThrow(/duplicate key/);
    expect(() => parseStrictJson('{"a":{"x":1,"x":2}}')).toThrow(InvalidInput);
    // Escapes spell the same key.
    expect(() => parseStrictJson('{"tag":1,"\\u0074ag":2}')).toThrow(/duplicate key/);
    // Strings that look like structure are data.
    expect(parseStrictJson('{"a":"{\\"a\\":1,","b":"\\\\"}')).toEqual({ a: '{"a":1,', b: '\\' });
    expect(() => parseStrictJson('{"a":')).toThrow(/malformed/);
  });
});
