import { CORE_SCHEMA, load, YAMLException } from 'js-yaml';
import { ManifestRejected } from '../errors';
import { AliasMeter } from './alias-meter';
import type { ManifestLimits } from './limits';
import { writtenTree } from './written-tree';
import { inspectTree, type TreeBudget } from './safe-tree';
import { splitDocuments, type DocumentChunk } from './split-documents';

export interface ParsedDocument {
  /** 0-based position in the stream. */
  index: number;
  /** The document as plain data (null values dropped); undefined when empty or unparseable. */
  value: unknown;
  /** Set when the document is not valid YAML; it becomes an error result of that document. */
  syntaxError?: string;
}

function position(error: YAMLException, firstLine: number): string {
  return error.mark ? ` at line ${firstLine + error.mark.line + 1}, column ${error.mark.column + 1}` : '';
}

function rejectionFor(error: unknown, firstLine: number): ManifestRejected | undefined {
  if (error instanceof ManifestRejected) return error;
  if (error instanceof RangeError) {
    return new ManifestRejected('TOO_DEEP', 'manifest nests too deeply to parse');
  }
  if (!(error instanceof YAMLException)) return undefined;
  if (error.reason === 'duplicated mapping key') {
    return new ManifestRejected('DUPLICATE_KEY', `DUPLICATE_KEY: duplicated mapping key${position(error, firstLine)}`);
  }
  if (error.reason.startsWith('unknown tag')) {
    const tag = `${error.reason}${position(error, firstLine)}`;
    return new ManifestRejected('UNKNOWN_TAG', `YAML tags outside the core schema are not accepted: ${tag}`);
  }
  if (error.reason.startsWith('nesting exceeded maxDepth')) {
    return new ManifestRejected('TOO_DEEP', 'manifest nests deeper than the depth limit');
  }
  return undefined;
}

function syntaxMessage(error: unknown, firstLine: number): string {
  if (error instanceof YAMLException) return `YAML syntax error${position(error, firstLine)}: ${error.reason}`;
  return `YAML document could not be read: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * Parses an untrusted manifest into documents, refusing it whole (ManifestRejected) when it exceeds a limit
 * or uses a hostile construct, and keeping plain syntax errors as errors of their own document.
 *
 * Parser: js-yaml 4 with the YAML 1.2 core schema, chosen over `yaml` for speed (about 10x here, which the
 * throughput target needs). Its safety properties are the ones docs/security.md Y-5 asks of `yaml`:
 * - core schema passed explicitly: no merge keys (`<<` is an ordinary key), `no` stays a string, and a
 *   `%YAML 1.1` directive cannot switch schemas; any other tag (`!!js/function`, `!custom`) throws;
 * - duplicate keys throw (`json: false`), which becomes DUPLICATE_KEY;
 * - `__proto__` keys are stored with defineProperty, as own properties;
 * - nesting is bounded by maxDepth inside the parser, and again on the result by inspectTree;
 * - every alias is counted, and its expansion bounded, by AliasMeter while parsing; aliased mappings and
 *   sequences come back as shared objects, whose expansion inspectTree bounds in nodes and depth.
 * Every exception is caught: nothing thrown by the parser escapes as anything but a result or a rejection.
 */
export function parseManifest(text: string, limits: ManifestLimits): ParsedDocument[] {
  checkSize(text, limits);
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const chunks = splitDocuments(source, limits.maxDocuments);
  const budget: TreeBudget = { nodes: 0, aliases: 0 };
  return chunks.map((chunk, index) => parseDocument(chunk, index, limits, budget));
}

function checkSize(text: string, limits: ManifestLimits): void {
  if (text.length > limits.maxBytes || Buffer.byteLength(text, 'utf8') > limits.maxBytes) {
    throw new ManifestRejected('TOO_LARGE', `manifest is larger than ${limits.maxBytes} bytes`);
  }
}

/**
 * The one document this process dumped `value` into (`text`: the generator's own manifests), as parseManifest reads it
 * back, without parsing it: the same size limit on the text, and the same checks of the tree, whose null values are
 * dropped, on a plain-data copy of the value (js-yaml dumps no key whose value is undefined, and an undefined item as
 * null: JSON's rules, which the copy follows).
 */
export function writtenDocument(text: string, value: unknown, limits: ManifestLimits): ParsedDocument {
  checkSize(text, limits);
  return { index: 0, value: writtenTree(value, limits) ?? undefined };
}

/**
 * One document of a stream (see parseManifest); `budget` is shared by the documents of one request. Throws
 * ManifestRejected for a limit or a hostile construct.
 */
export function parseDocument(
  chunk: DocumentChunk,
  index: number,
  limits: ManifestLimits,
  budget: TreeBudget,
): ParsedDocument {
  let value: unknown;
  try {
    const { listener } = new AliasMeter(chunk.text.length, limits, budget);
    value = load(chunk.text, { schema: CORE_SCHEMA, json: false, maxDepth: limits.maxDepth, listener });
  } catch (error) {
    const rejection = rejectionFor(error, chunk.firstLine);
    if (rejection) throw rejection;
    return { index, value: undefined, syntaxError: syntaxMessage(error, chunk.firstLine) };
  }
  try {
    if (value !== null && value !== undefined) inspectTree(value, limits, budget);
  } catch (error) {
    // Only reachable with a depth limit raised past what the stack holds.
    if (error instanceof RangeError) throw new ManifestRejected('TOO_DEEP', 'manifest nests too deeply to inspect');
    throw error;
  }
  return { index, value: value ?? undefined };
}
