/**
 * Whether a reference in a kustomization is one kustomize could fetch over the network, in any spelling its loaders
 * accept (issue 42 M2), or one that merely looks like it. Renderers have no network, so all of these are refused
 * before a build, never left to the sandbox: a loopback URL bypasses any proxy setting (Go's ProxyFromEnvironment
 * never proxies localhost), and open and closed ports answered different messages.
 *
 * What kustomize takes as remote (v5, api/loader and api/internal/git/repospec.go): its file loader fetches any URL
 * whose scheme parses as http or https (url.Parse lowercases it: `HTTP://`, `HtTpS://`); its git RepoSpec parser
 * accepts, case-insensitively, a `git::` prefix, any `scheme://` (https, http, ssh, file), scp-like `user@host:path`,
 * the `github.com/` and `github.com:` hosts, Azure's `_git/`, and `//` as the go-getter subfolder separator. The rule
 * below is a superset: an entry with a scheme-like prefix, `//`, `@` or `:` before its first `/`, a `?` query,
 * `_git/`, or a host-like `github.com` first segment.
 */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export function remoteReference(reference: string): boolean {
  const ref = reference.trim();
  const first = ref.split('/', 1)[0]!;
  return (
    SCHEME.test(ref) ||
    ref.includes('//') ||
    first.includes('@') ||
    first.includes(':') ||
    ref.includes('?') ||
    ref.includes('_git/') ||
    /^github\.com$/i.test(first)
  );
}
