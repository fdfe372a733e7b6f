import {
  hmacSha256,
  matchesAny,
  parseSignature,
  parseUnixSeconds,
  signedBytes,
  withinWindow,
} from '../../../src/webhooks/signature';

describe('webhook signatures (docs/security.md section 7)', () => {
  it('computes the documented test vectors over raw bytes', () => {
    expect(hmacSha256("It's a Secret to Everybody", Buffer.from('Hello, World!')).toString('hex')).toBe(
      '757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    );
    const shapeA = signedBytes(Buffer.from('{"event":"ping"}'), '1700000000');
    expect(hmacSha256('whsec_test_secret', shapeA).toString('hex')).toBe(
      'ae2394651d90c0cf67b1a139866a7d93a74295a5750d8d351480bb06145b11f4',
    );
  });

  it('accepts exactly one lowercase sha256 signature', () => {
    const hex = 'ae2394651d90c0cf67b1a139866a7d93a74295a5750d8d351480bb06145b11f4';
    expect(parseSignature(`sha256=${hex}`)?.toString('hex')).toBe(hex);
    for (const bad of [
      hex,
      `sha256=${hex.toUpperCase()}`,
      `sha256=${hex.slice(1)}`,
      `sha256=${hex}0`,
      `sha1=${hex}`,
      `sha256=${hex}, sha256=${hex}`,
      '',
      undefined,
    ]) {
      expect(parseSignature(bad)).toBeNull();
    }
  });

  it('verifies against any live secret, in constant time per secret', () => {
    const bytes = Buffer.from('1700000000.{"event":"ping"}');
    const mac = hmacSha256('new', bytes);
    expect(matchesAny(mac, ['old', 'new'], bytes)).toBe(true);
    expect(matchesAny(mac, ['old'], bytes)).toBe(false);
    expect(matchesAny(mac.subarray(0, 16), ['new'], bytes)).toBe(false);
  });

  it('reads Unix seconds strictly and checks both sides of the window', () => {
    expect(parseUnixSeconds('1700000000')).toBe(1_700_000_000);
    for (const bad of ['', '-1', '1e9', ' 1', '1.5', undefined]) expect(parseUnixSeconds(bad)).toBeNull();
    const now = 1_700_000_000_000;
    expect(withinWindow(now - 300_000, now, 300_000)).toBe(true);
    expect(withinWindow(now - 301_000, now, 300_000)).toBe(false);
    expect(withinWindow(now + 301_000, now, 300_000)).toBe(false);
  });
});
