import { canonicalPath } from '../../../src/machine-access/canonical-path';
import { allowlistEntry, keyPathEntry } from '../../../src/machine-access/key-allowlist';

const FILES = '/api/v2/projects/alpha/files';

describe('canonical path', () => {
  it.each([
    ['/api/v2/projects/alpha/files', FILES],
    ['/api/v2/projects/x/../alpha/files', FILES],
    ['/api/v2/projects/alpha/./files', FILES],
    ['/api/v2/projects/%2e%2e/projects/alpha/files', FILES],
    ['/api/v2/projects/alpha/%2E/files', FILES],
    ['//api//v2/projects///alpha/files', FILES],
    ['/api/v2/projects/alpha%2Ffiles', FILES],
    ['/api/v2/projects/alpha/files/', `${FILES}/`],
    ['/API/v2/projects/alpha/files', '/API/v2/projects/alpha/files'],
    ['/a/b/..', '/a/'],
    ['/..', '/'],
    ['/../../etc', '/etc'],
  ])('%s -> %s', (raw, canonical) => {
    expect(canonicalPath(raw)).toBe(canonical);
  });

  it('refuses what cannot be decoded', () => {
    expect(canonicalPath('/api/%zz')).toBeNull();
    expect(canonicalPath('/api/%E0%A4%A')).toBeNull();
  });

  it('decodes once: a double-encoded dot segment stays a literal segment', () => {
    expect(canonicalPath('/api/v2/projects/alpha/%252e%252e/files')).toBe('/api/v2/projects/alpha/%2e%2e/files');
  });
});

describe('API key allowlist', () => {
  it('matches only exact, canonical, routed spellings', () => {
    expect(allowlistEntry('GET', FILES)?.path).toBe('/api/v2/projects/:slug/files');
    expect(keyPathEntry('GET', FILES)?.scopes).toEqual(['read', 'write', 'admin']);
    for (const raw of [
      `${FILES}/`,
      '/API/v2/projects/alpha/files',
      '/api/v2/projects/alpha/FILES',
      '/api/v2/projects/x/../alpha/files',
      '/api/v2/projects/alpha//files',
      '/api/v2/projects/alpha%2Ffiles',
      '/api/v2/projects/%61lpha/files',
      '/api/v2/projects/alpha/files;x=1',
      '/api/v2/projects/alpha;x/files',
      '/api/v2/projects/alpha/api-keys',
      '/api/v2/projects',
      '/api/v2/iam/service-accounts',
    ]) {
      expect([raw, keyPathEntry('GET', raw)]).toEqual([raw, null]);
    }
    expect(keyPathEntry('POST', FILES)).toBeNull();
    expect(keyPathEntry('HEAD', FILES)).toBeNull();
  });

  it('admits git clone of one repository and nothing else under /git', () => {
    expect(keyPathEntry('GET', '/git/r/acme/alpha.git/info/refs')).not.toBeNull();
    expect(keyPathEntry('POST', '/git/r/acme/alpha.git/git-upload-pack')).not.toBeNull();
    expect(keyPathEntry('POST', '/git/r/acme/alpha.git/git-receive-pack')).toBeNull();
    expect(keyPathEntry('GET', '/git/r/acme/alpha/info/refs')).toBeNull();
  });
});
