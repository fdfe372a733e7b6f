import { ManifestRejected } from '../errors';

export interface DocumentChunk {
  text: string;
  /** 0-based line of the chunk's first line within the whole input, to report syntax errors where they are. */
  firstLine: number;
}

/**
 * `---` and `...` at the start of a line, followed by a blank or the end of the line. YAML forbids such a
 * line inside any scalar (the spec's c-forbidden production), so it always bounds a document.
 */
const MARKER = /^(---|\.\.\.)(?=[ \t\r\n]|$)/gm;

/** Directives (`%YAML 1.2`), comments and blank lines: what may come before a document's `---`. */
function isPreamble(segment: string): boolean {
  return segment.split('\n').every((line) => /^(?:[ \t\r]*(?:#.*)?|%.*)$/.test(line));
}

/**
 * Cuts a YAML stream into one piece per document without parsing it, so that a syntax error stays an error
 * of its own document and the document count is capped before any parsing work is spent.
 */
export function splitDocuments(text: string, maxDocuments: number): DocumentChunk[] {
  const chunks: DocumentChunk[] = [];
  let start = 0;
  let line = 0;
  let counted = 0;
  const push = (end: number): void => {
    if (chunks.length >= maxDocuments) {
      throw new ManifestRejected('TOO_MANY_DOCUMENTS', `manifest has more than ${maxDocuments} YAML documents`);
    }
    chunks.push({ text: text.slice(start, end), firstLine: line });
    for (let i = text.indexOf('\n', counted); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) line++;
    counted = end;
    start = end;
  };
  for (const match of text.matchAll(MARKER)) {
    const at = match.index;
    if (match[1] === '---') {
      if (at === start) continue;
      const segment = text.slice(start, at);
      // Directives and comments before `---` belong to the document it opens.
      if (!segment.startsWith('---') && isPreamble(segment)) continue;
      push(at);
    } else {
      const newline = text.indexOf('\n', at);
      push(newline === -1 ? text.length : newline + 1);
    }
  }
  if (start < text.length || chunks.length === 0) push(text.length);
  return chunks;
}
