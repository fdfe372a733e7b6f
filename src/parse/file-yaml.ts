import { dumpYaml } from './bounded-parse';

/**
 * The YAML text of the files the platform writes (generated manifests, Argo CD objects, chart and kustomize output):
 * byte for byte js-yaml's `dump(value, FILE_YAML)`, which the repositories' files were written with, in a fraction of
 * its time (issue 46: a 1,000-Application generate dumps 5,000 documents, a fifth of its CPU in js-yaml). It writes
 * what js-yaml writes for plain data: block mappings and sequences (sequences indented under their key, an object item
 * starting on its dash's line), `{}` and `[]` when empty, keys whose value is undefined left out and undefined items
 * written as null. A scalar's text is js-yaml's own: a word of letters, digits and `._/-` starting with a letter is
 * written as it is unless YAML would read it as a boolean or null (js-yaml's `DEPRECATED_BOOLEANS_SYNTAX` included);
 * any other scalar is dumped by js-yaml alone (its text does not depend on where it stands when it has no line break)
 * and remembered. Anything else (a string with a line break, which js-yaml writes as a block indented by its depth; a
 * key over 1,024 characters of text; a Date, Map, Buffer or boxed value; a cycle) has the whole document dumped by
 * js-yaml.
 */
export const FILE_YAML = { lineWidth: -1, noRefs: true, quotingType: '"' } as const;

export function dumpFileYaml(value: unknown): string {
  try {
    const text = node(value, 0, true);
    return text === undefined ? '' : `${text}\n`;
  } catch {
    return dumpYaml(value, FILE_YAML);
  }
}

/** Thrown where the document leaves what this writer covers: js-yaml then writes all of it. */
class NotCovered extends Error {}

const PLAIN_WORD = /^[A-Za-z][A-Za-z0-9._/-]*$/;
/** Words YAML reads as booleans or null (core schema), and the YAML 1.1 booleans js-yaml quotes for compatibility. */
const TYPED_WORDS = new Set(
  'true True TRUE false False FALSE null Null NULL y Y yes Yes YES on On ON n N no No NO off Off OFF'.split(' '),
);
/** js-yaml's text of scalars other than plain words, by value; emptied when full. */
const scalars = new Map<string | number, string>();
const SCALARS_KEPT = 10_000;
/** Longer strings are not remembered (the memory a full map may hold stays small). */
const SCALAR_KEPT_LENGTH = 256;
const KEY_EXPLICIT = 1024;

function scalar(value: string | number): string {
  let text = scalars.get(value);
  if (text === undefined) {
    text = dumpYaml(value, FILE_YAML).slice(0, -1);
    if (typeof value === 'number' || value.length <= SCALAR_KEPT_LENGTH) {
      if (scalars.size >= SCALARS_KEPT) scalars.clear();
      scalars.set(value, text);
    }
  }
  return text;
}

function stringText(value: string): string {
  if (PLAIN_WORD.test(value) && !TYPED_WORDS.has(value)) return value;
  if (value.includes('\n')) throw new NotCovered();
  return scalar(value);
}

const INDENTS = Array.from({ length: 16 }, (_, level) => `\n${' '.repeat(2 * level)}`);
const indent = (level: number) => INDENTS[level] ?? `\n${' '.repeat(2 * level)}`;

/** The text of a node at `level`, as js-yaml's writeNode in block style leaves it; undefined for undefined. */
function node(value: unknown, level: number, compact: boolean): string | undefined {
  switch (typeof value) {
    case 'string':
      return stringText(value);
    case 'number':
      return value % 1 === 0 && !Object.is(value, -0) ? String(value) : scalar(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return undefined;
    case 'object': {
      if (value === null) return 'null';
      const kind = Object.prototype.toString.call(value);
      if (kind === '[object Array]') return sequence(value as unknown[], level, compact);
      if (kind === '[object Object]') return mapping(value as Record<string, unknown>, level, compact);
      throw new NotCovered();
    }
    default:
      throw new NotCovered();
  }
}

function sequence(items: unknown[], level: number, compact: boolean): string {
  let out = '';
  for (let i = 0; i < items.length; i += 1) {
    const text = node(items[i], level + 1, true) ?? 'null';
    if (!compact || out !== '') out += indent(level);
    out += text.charCodeAt(0) === 10 ? `-${text}` : `- ${text}`;
  }
  return out || '[]';
}

function mapping(object: Record<string, unknown>, level: number, compact: boolean): string {
  let out = '';
  for (const key of Object.keys(object)) {
    const text = node(object[key], level + 1, false);
    if (text === undefined) continue;
    const keyText = stringText(key);
    if (keyText.length > KEY_EXPLICIT) throw new NotCovered();
    if (!compact || out !== '') out += indent(level);
    out += text.charCodeAt(0) === 10 ? `${keyText}:${text}` : `${keyText}: ${text}`;
  }
  return out || '{}';
}
