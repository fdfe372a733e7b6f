import type { DocumentChunk } from '../manifest/split-documents';
import { ManifestRejected } from '../errors';
import type { ResourceReport } from '../validate-manifest';
import { applyPolicy, type Policy, type ResourceOutcome } from './outcome';
import { readDocuments, readFailure, type Source } from './sources';

/** What validating one source yields, in order: its resources, then perhaps the reason it could not be read. */
export type SourceEvent = { outcome: ResourceOutcome } | { unreadable: string };

export type DocumentValidator = (chunk: DocumentChunk, index: number) => ResourceReport[];

/** A refused document (alias bomb, duplicate key, too deep) is one invalid resource of its own. */
function reportsOf(validate: DocumentValidator, chunk: DocumentChunk, index: number): ResourceReport[] {
  try {
    return validate(chunk, index);
  } catch (error) {
    if (!(error instanceof ManifestRejected)) throw error;
    const resource = `<unknown>/<document ${index + 1}>`;
    return [
      { resource, documentIndex: index, results: [{ severity: 'error', message: error.message, path: '', resource }] },
    ];
  }
}

/** Reads, validates and yields one source a document at a time: memory holds one document and its results. */
export async function* validateSource(
  source: Source,
  validate: DocumentValidator,
  policy: Policy,
): AsyncGenerator<SourceEvent> {
  if (source.error !== undefined) {
    yield { unreadable: source.error };
    return;
  }
  let index = 0;
  try {
    for await (const chunk of readDocuments(source)) {
      for (const report of reportsOf(validate, chunk, index++)) {
        yield { outcome: applyPolicy(report, chunk.firstLine + 1, policy) };
      }
    }
  } catch (error) {
    const unreadable = readFailure(error);
    if (unreadable === undefined) throw error;
    yield { unreadable };
  }
}
