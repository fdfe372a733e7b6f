import { CORE_SCHEMA, dump, loadAll, YAMLException, type DumpOptions } from 'js-yaml';
import { parseAllDocuments } from 'yaml';
import { InvalidInput, PayloadTooLarge } from '../errors';
import { flowDepthExceeds } from './nesting-scan';

/** What one parse of untrusted YAML or JSON may cost. */
export interface ParseLimits {
  /** UTF-16 code units of the text (a byte budget is the body limit's job; this bounds the scan and the parser). */
  maxLength: number;
  /** Nesting of mappings and sequences (flow and block). */
  maxDepth: number;
  /** Values of the result, each alias expansion counted in full (bounds "billion laughs" and recursive aliases). */
  maxNodes: number;
  /** YAML aliases in the text. */
  maxAliases: number;
  /** YAML documents in one stream. */
  maxDocuments: number;
}

export const PARSE_LIMITS: Readonly<ParseLimits> = {
  maxLength: 8 * 1024 * 1024,
  maxDepth: 64,
  maxNodes: 1_000_000,
  maxAliases: 100,
  maxDocuments: 2_000,
};

/** A text refused by the bounded parse: 400 naming what was being read (413 for length). */
export class ParseRefused extends InvalidInput {}

function refuse(what: string, why: string): never {
  throw new ParseRefused(`${what}: ${why}`);
}

function checkText(text: string, what: string, limits: ParseLimits): void {
  if (text.length > limits.maxLength)
    throw new PayloadTooLarge(`${what} is longer than ${limits.maxLength} characters`);
  if (flowDepthExceeds(text, limits.maxDepth)) refuse(what, `nests deeper than ${limits.maxDepth} levels`);
}

/** Counts the values of a parsed result without recursion; shared objects (aliases) count every time they are met. */
function checkNodes(values: unknown[], what: string, limits: ParseLimits): void {
  const stack: unknown[] = [...values];
  let nodes = 0;
  while (stack.length > 0) {
    const value = stack.pop();
    if (++nodes > limits.maxNodes) refuse(what, `holds more than ${limits.maxNodes} values`);
    if (value !== null && typeof value === 'object') {
      for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push(child);
    }
  }
}

/**
 * Every document of a YAML stream, parsed with js-yaml's YAML 1.2 core schema (no custom tags, no merge keys,
 * duplicate keys refused) within `limits`: the length and flow nesting are checked on the raw text before the parser
 * runs, block nesting by the parser's own maxDepth, aliases while parsing and the result's size after. Every parser
 * failure answers 400 (`ParseRefused`) naming `what` (e.g. "kustomization.yaml"); nothing else escapes.
 */
export function parseYamlDocuments(text: string, what: string, limits: ParseLimits = PARSE_LIMITS): unknown[] {
  checkText(text, what, limits);
  let aliases = 0;
  let docs: unknown[];
  try {
    docs = loadAll(text, null, {
      schema: CORE_SCHEMA,
      json: false,
      maxDepth: limits.maxDepth,
      listener: (event, state) => {
        if (event === 'close' && state.kind === null && state.result !== null && state.result !== undefined) {
          if (++aliases > limits.maxAliases) refuse(what, `uses more than ${limits.maxAliases} YAML aliases`);
        }
      },
    });
  } catch (err) {
    if (err instanceof ParseRefused) throw err;
    if (err instanceof YAMLException) refuse(what, `not valid YAML (${err.reason})`);
    refuse(what, 'not readable YAML');
  }
  if (docs.length > limits.maxDocuments) refuse(what, `holds more than ${limits.maxDocuments} YAML documents`);
  checkNodes(docs, what, limits);
  return docs;
}

/** One YAML document (an empty text is `undefined`); a stream of several is refused. */
export function parseYaml(text: string, what: string, limits: ParseLimits = PARSE_LIMITS): unknown {
  const docs = parseYamlDocuments(text, what, limits);
  if (docs.length > 1) refuse(what, 'holds more than one YAML document');
  return docs[0];
}

/**
 * Every document of a YAML stream as a Go program reading it with go-yaml sees it: YAML merge keys (`<<: *base`,
 * `<<: {a: 1}`) resolved. Only for files another program reads with merge keys (kustomization files: kustomize reads
 * them with sigs.k8s.io/yaml over go-yaml), so that what we check is what it uses; manifests keep the core schema.
 * The text is first held to every bound of `parseYamlDocuments` (length, depth, aliases, values), which also refuses
 * what js-yaml cannot read; then the `yaml` package merges.
 */
export function parseYamlDocumentsMerged(text: string, what: string, limits: ParseLimits = PARSE_LIMITS): unknown[] {
  parseYamlDocuments(text, what, limits);
  const docs = parseAllDocuments(text, { merge: true, uniqueKeys: true });
  const list = Array.isArray(docs) ? docs : [docs];
  try {
    return list.map((doc) => {
      if (doc.errors.length > 0) refuse(what, `not valid YAML (${doc.errors[0]!.message})`);
      return doc.toJS({ maxAliasCount: limits.maxAliases }) as unknown;
    });
  } catch (err) {
    if (err instanceof ParseRefused) throw err;
    refuse(what, 'not readable YAML');
  }
}

/** JSON text within `limits` (depth checked on the raw text, values after); a syntax error answers 400. */
export function parseJson(text: string, what: string, limits: ParseLimits = PARSE_LIMITS): unknown {
  checkText(text, what, limits);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    refuse(what, 'not valid JSON');
  }
  checkNodes([value], what, limits);
  return value;
}

/** YAML text of a value (js-yaml's dump; the wrapper is the one module that imports a YAML library). */
export function dumpYaml(value: unknown, options?: DumpOptions): string {
  return dump(value, options);
}
