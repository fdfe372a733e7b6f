import { InvalidInput } from '../../../src/errors';
import {
  decodeUrlComponent,
  decodeWellFormed,
  illFormedTextAt,
  refuseIllFormedText,
} from '../../../src/http/text-guard';

describe('the text guard', () => {
  it('finds NUL and unpaired surrogates in strings and keys, keeping paired ones', () => {
    expect(illFormedTextAt({ a: ['ok', 'emoji \ud83d\ude00'] })).toBeNull();
    expect(illFormedTextAt({ a: ['ok', 'x\ud800'] })).toEqual({ at: 'a.1', defect: 'surrogate' });
    expect(illFormedTextAt({ a: { '\udc00': 1 } })).toEqual({ at: 'a.\\udc00', defect: 'surrogate' });
    expect(illFormedTextAt({ m: 'a\u0000b' })).toEqual({ at: 'm', defect: 'NUL' });
    expect(() => refuseIllFormedText({ body: { message: 'commit \ud800' } })).toThrow(
      'invalid request body: message must not contain unpaired UTF-16 surrogates',
    );
  });

  it('decodes bytes and URL components strictly', () => {
    expect(decodeWellFormed(Buffer.from('{"a":"é"}'))).toBe('{"a":"é"}');
    expect(() => decodeWellFormed(Buffer.from([0x7b, 0xed, 0xa0, 0x80, 0x7d]))).toThrow(InvalidInput);
    expect(() => decodeWellFormed(Buffer.from([0x7b, 0xc0, 0xaf, 0x7d]))).toThrow('not valid UTF-8');
    expect(() => decodeWellFormed(Buffer.from('{"a":"\u0000"}'))).toThrow(/NUL/);
    expect(decodeUrlComponent('a%20b+c', 'query')).toBe('a b c');
    expect(() => decodeUrlComponent('%ff', 'path')).toThrow('invalid request path: not valid percent-encoded UTF-8');
    expect(() => decodeUrlComponent('%ED%A0%80', 'query')).toThrow(InvalidInput);
    expect(() => decodeUrlComponent('a%00', 'query')).toThrow(/NUL/);
  });
});
