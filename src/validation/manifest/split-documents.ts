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
const START = /^---(?=[ \t\r\n]|$)/;
const END = /^\.\.\.(?=[ \t\r\n]|$)/;
/** Directives (`%YAML 1.2`), comments and blank lines: what may come before a document's `---`. */
const PREAMBLE = /^(?:[ \t\r]*(?:#.*)?|%.*)\n?$/;

/**
 * Cuts a YAML stream into one piece per document without parsing it, line by line as the text arrives, so
 * that a syntax error stays an error of its own document, a file is read with one document in memory at a
 * time (the CLI), and the document count is capped before any parsing work is spent.
 */
export class DocumentSplitter {
  private lines: string[] = [];
  /** The end of the last line seen, until its newline arrives. */
  private partial = '';
  /** The current document has only directives, comments and blank lines so far. */
  private preamble = true;
  private line = 0;
  private firstLine = 0;
  private count = 0;

  constructor(private readonly maxDocuments = Infinity) {}

  /** The documents completed by this piece of the stream. */
  push(text: string): DocumentChunk[] {
    const out: DocumentChunk[] = [];
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      this.addLine(this.partial + text.slice(start, nl + 1), out);
      this.partial = '';
      start = nl + 1;
    }
    this.partial += text.slice(start);
    return out;
  }

  /** The last document (an empty stream is one empty document). */
  end(): DocumentChunk[] {
    const out: DocumentChunk[] = [];
    if (this.partial !== '') this.addLine(this.partial, out);
    this.partial = '';
    if (this.lines.length > 0 || this.count === 0) this.emit(out);
    return out;
  }

  private addLine(line: string, out: DocumentChunk[]): void {
    if (START.test(line) && this.lines.length > 0) {
      // Directives and comments before `---` belong to the document it opens.
      const opens = this.preamble && !(this.lines[0] ?? '').startsWith('---');
      if (!opens) this.emit(out);
    }
    this.lines.push(line);
    this.preamble &&= PREAMBLE.test(line);
    if (END.test(line)) this.emit(out);
  }

  private emit(out: DocumentChunk[]): void {
    if (this.count >= this.maxDocuments) {
      throw new ManifestRejected('TOO_MANY_DOCUMENTS', `manifest has more than ${this.maxDocuments} YAML documents`);
    }
    this.count++;
    out.push({ text: this.lines.join(''), firstLine: this.firstLine });
    this.firstLine = this.line + this.lines.length;
    this.line = this.firstLine;
    this.lines = [];
    this.preamble = true;
  }
}

/** The documents of a whole text (see DocumentSplitter). */
export function splitDocuments(text: string, maxDocuments: number): DocumentChunk[] {
  const splitter = new DocumentSplitter(maxDocuments);
  return [...splitter.push(text), ...splitter.end()];
}
