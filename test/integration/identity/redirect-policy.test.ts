import { safeReturnTo } from '../../../src/identity/oauth/redirect-policy';

/**
 * A-20 against the documented default AUTH_REDIRECT_PATHS=`/` (everything below `/`), where only the same-origin
 * shape of the normalised path stands between a returnTo and another site.
 */
describe('post-login redirect policy with the default allowlist', () => {
  const allowed = ['/'];
  const fallback = '/';

  it.each([
    'https://evil.tld',
    '//evil.tld',
    '/\\evil.tld',
    // Dot segments that URL parsing removes, leaving a protocol-relative `//evil.tld` behind.
    '/.//evil.tld',
    '/%2e//evil.tld',
    '/app/..//evil.tld',
    '/app/%2E%2E//evil.tld',
  ])('never lands on another site: %s', (raw) => {
    const target = safeReturnTo(raw, allowed, fallback);
    expect(target).toBe(fallback);
    expect(new URL(target, 'https://platform.example').origin).toBe('https://platform.example');
  });

  it('keeps ordinary relative paths with their query and fragment', () => {
    expect(safeReturnTo('/app/projects?tab=1#top', allowed, fallback)).toBe('/app/projects?tab=1#top');
    expect(safeReturnTo('/app/./x/../y', allowed, fallback)).toBe('/app/y');
  });
});
