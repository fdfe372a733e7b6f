/** What `Chart.yaml` says of a chart: at least its name and version (the config blob of the push). */
export interface ChartMetadata {
  name: string;
  version: string;
  [key: string]: string;
}

const SCALARS = ['apiVersion', 'name', 'version', 'appVersion', 'description', 'type'];

/**
 * The top-level scalar fields of Chart.yaml the push's config carries (the registry reads the chart's full metadata
 * from the archive itself, with its own bounded parser).
 */
function chartScalars(text: string): Partial<ChartMetadata> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^([A-Za-z]+):[ \t]*(.*?)[ \t]*$/.exec(line);
    if (!match || !SCALARS.includes(match[1]!) || match[2] === '') continue;
    out[match[1]!] = match[2]!.replace(/^(["'])(.*)\1$/, '$2');
  }
  return out;
}

const text = (block: Uint8Array, from: number, length: number) =>
  new TextDecoder().decode(block.subarray(from, from + length)).replace(/\0.*$/s, '');

/** The files of a ustar archive by path (regular files only; pax and GNU long names are skipped). */
function* tarEntries(tar: Uint8Array): Generator<{ path: string; content: Uint8Array }> {
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    const name = text(header, 0, 100);
    if (name === '') return;
    const size = parseInt(text(header, 124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) throw new Error('the archive has an entry of unreadable size');
    const type = text(header, 156, 1);
    const prefix = text(header, 345, 155);
    const start = at + 512;
    if (type === '' || type === '0') {
      yield { path: prefix ? `${prefix}/${name}` : name, content: tar.subarray(start, start + size) };
    }
    at = start + Math.ceil(size / 512) * 512;
  }
}

/**
 * Reads `<chart>/Chart.yaml` of a packaged chart (`helm package`'s .tgz) in the browser: gunzip, then the tar
 * entries. Throws in words when the file is not a chart archive.
 */
export async function chartMetadataOf(archive: Uint8Array<ArrayBuffer>): Promise<ChartMetadata> {
  let tar: Uint8Array;
  try {
    const stream = new Blob([archive]).stream().pipeThrough(new DecompressionStream('gzip'));
    tar = new Uint8Array(await new Response(stream).arrayBuffer());
  } catch {
    throw new Error('not a gzip archive: pick the .tgz that helm package made');
  }
  for (const entry of tarEntries(tar)) {
    if (/^[^/]+\/Chart\.yaml$/.test(entry.path)) {
      const chart = chartScalars(new TextDecoder().decode(entry.content));
      if (!chart.name || !chart.version) throw new Error(`${entry.path} has no name or version`);
      return { ...chart, name: chart.name, version: chart.version };
    }
  }
  throw new Error('no <chart>/Chart.yaml in the archive');
}
