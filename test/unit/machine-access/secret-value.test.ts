import {
  KEY_PREFIX,
  TOKEN_PREFIX,
  checksumOf,
  isWellFormed,
  mintSecret,
  secretHash,
} from '../../../src/machine-access/secret-value';

describe('machine credential values', () => {
  it('carry the typed prefix, 40 random base62 characters and a 6-character checksum', () => {
    const key = mintSecret(KEY_PREFIX);
    expect(key).toMatch(/^svc_[0-9A-Za-z]{46}$/);
    expect(mintSecret(TOKEN_PREFIX)).toMatch(/^svcacct_[0-9A-Za-z]{46}$/);
    expect(isWellFormed(KEY_PREFIX, key)).toBe(true);
    expect(key.slice(-6)).toBe(checksumOf(KEY_PREFIX, key.slice(4, 44)));
  });

  it('are distinct draws (no repeats over many values)', () => {
    const seen = new Set(Array.from({ length: 2000 }, () => mintSecret(KEY_PREFIX)));
    expect(seen.size).toBe(2000);
  });

  it('tell a mistyped value from a well-formed one', () => {
    const key = mintSecret(KEY_PREFIX);
    const flipped = `${key.slice(0, 10)}${key[10] === 'A' ? 'B' : 'A'}${key.slice(11)}`;
    expect(isWellFormed(KEY_PREFIX, flipped)).toBe(false);
    expect(isWellFormed(KEY_PREFIX, key.slice(0, -1))).toBe(false);
    expect(isWellFormed(TOKEN_PREFIX, key)).toBe(false);
    expect(isWellFormed(KEY_PREFIX, `${key}x`)).toBe(false);
    // A token value presented as a key: same alphabet, other prefix, so the checksum does not hold.
    const token = mintSecret(TOKEN_PREFIX);
    expect(isWellFormed(KEY_PREFIX, `svc_${token.slice(8)}`)).toBe(false);
  });

  it('are stored as SHA-256 of the whole value', () => {
    const key = mintSecret(KEY_PREFIX);
    expect(secretHash(key)).toHaveLength(32);
    expect(secretHash(key).equals(secretHash(key))).toBe(true);
    expect(secretHash(key).equals(secretHash(mintSecret(KEY_PREFIX)))).toBe(false);
  });
});
