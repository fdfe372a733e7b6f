import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DocumentSplitter, type DocumentChunk } from '../manifest/split-documents';

/** One input to validate: a file, or standard input (no `file`); `error` when it cannot be read at all. */
export interface Source {
  name: string;
  file?: string;
  error?: string;
  /** Size of a file when listed. */
  bytes?: number;
}

export const STDIN = '<stdin>';
const MANIFEST = /\.(ya?ml|json)$/i;
/** The options file (cli-args.ts CONFIG_FILE) found in a directory is not a manifest. */
const OPTIONS_FILE = '.delivery-validate.json';

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}

/** Files as given, directories searched recursively for manifests in a stable order, `-` for stdin. */
export function expandInputs(base: string, inputs: readonly string[]): Source[] {
  const sources: Source[] = [];
  const walk = (file: string, name: string, given: boolean): void => {
    let stat: fs.Stats;
    let entries: string[] = [];
    try {
      stat = fs.statSync(file);
      if (stat.isDirectory()) entries = fs.readdirSync(file).sort();
    } catch (error) {
      sources.push({ name, file, error: reason(error) });
      return;
    }
    if (!stat.isDirectory()) {
      if (given || (MANIFEST.test(name) && path.basename(name) !== OPTIONS_FILE))
        sources.push({ name, file, bytes: stat.size });
      return;
    }
    for (const entry of entries) walk(path.join(file, entry), path.join(name, entry), false);
  };
  for (const input of inputs) {
    if (input === '-') sources.push({ name: STDIN });
    else walk(path.resolve(base, input), input, true);
  }
  return sources;
}

function open(source: Source): Readable {
  if (source.file === undefined) return process.stdin.setEncoding('utf8');
  return fs.createReadStream(source.file, { encoding: 'utf8', highWaterMark: 64 * 1024 });
}

/** The source's YAML documents as they are read, one at a time (a leading byte order mark dropped). */
export async function* readDocuments(source: Source): AsyncGenerator<DocumentChunk> {
  const splitter = new DocumentSplitter();
  let first = true;
  for await (const piece of open(source) as AsyncIterable<string>) {
    yield* splitter.push(first && piece.charCodeAt(0) === 0xfeff ? piece.slice(1) : piece);
    first = false;
  }
  yield* splitter.end();
}

/** An error of reading (as opposed to one of validating), with the reason to print. */
export function readFailure(error: unknown): string | undefined {
  return typeof (error as NodeJS.ErrnoException | undefined)?.code === 'string' ? reason(error) : undefined;
}
