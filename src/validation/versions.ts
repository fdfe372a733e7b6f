export const SUPPORTED_K8S_VERSIONS = ['1.25', '1.26', '1.27', '1.28', '1.29', '1.30', '1.31', '1.32'] as const;

export type K8sVersion = (typeof SUPPORTED_K8S_VERSIONS)[number];

export function isSupportedVersion(version: string): version is K8sVersion {
  return (SUPPORTED_K8S_VERSIONS as readonly string[]).includes(version);
}

/** Compares `1.9` and `1.25` as minor versions (not as strings, where "1.9" > "1.25"). */
export function compareMinor(a: string, b: string): number {
  const [aMajor = 0, aMinor = 0] = a.split('.').map(Number);
  const [bMajor = 0, bMinor = 0] = b.split('.').map(Number);
  return aMajor - bMajor || aMinor - bMinor;
}
