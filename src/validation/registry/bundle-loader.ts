import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { BUNDLE_FORMAT, type K8sBundle } from '../bundle/bundle-types';
import { isRecord } from '../json';

export function bundlePath(dir: string, version: string): string {
  return path.join(dir, `${version}.json.gz`);
}

/** Reads one committed bundle (see scripts/build-k8s-schemas.ts); synchronous because it is ~1 MB once per version. */
export function loadBundle(dir: string, version: string): K8sBundle {
  const parsed: unknown = JSON.parse(zlib.gunzipSync(fs.readFileSync(bundlePath(dir, version))).toString('utf8'));
  if (
    !isRecord(parsed) ||
    parsed.format !== BUNDLE_FORMAT ||
    parsed.kubernetesVersion !== version ||
    !Array.isArray(parsed.resources) ||
    !isRecord(parsed.definitions)
  ) {
    throw new Error(`${bundlePath(dir, version)} is not a format-${BUNDLE_FORMAT} bundle for ${version}`);
  }
  return parsed as unknown as K8sBundle;
}
