import { ManifestRejected } from '../../../src/validation';
import { DocumentSplitter, splitDocuments } from '../../../src/validation/manifest/split-documents';

const texts = (yaml: string): string[] => splitDocuments(yaml, 100).map((c) => c.text);

describe('splitDocuments', () => {
  it('cuts at `---` lines, keeping each marker with its document', () => {
    expect(texts('a: 1\n---\nb: 2\n--- \nc: 3')).toEqual(['a: 1\n', '---\nb: 2\n', '--- \nc: 3']);
  });

  it('keeps directives and leading comments with the document they open', () => {
    expect(texts('# header\n%YAML 1.2\n---\na: 1\n')).toEqual(['# header\n%YAML 1.2\n---\na: 1\n']);
  });

  it('ends a document at `...`', () => {
    expect(texts('a: 1\n...\n---\nb: 2\n')).toEqual(['a: 1\n...\n', '---\nb: 2\n']);
  });

  it('does not cut at `---` inside a line or indented', () => {
    expect(texts('a: "x --- y"\nb: |\n  ---\n  text\nc: ---x\n')).toHaveLength(1);
  });

  it('reports where each document starts, for syntax error lines', () => {
    expect(splitDocuments('a: 1\nb: 2\n---\nc: 3\n---\n\nd: 4\n', 10).map((c) => c.firstLine)).toEqual([0, 2, 4]);
  });

  it('handles CRLF line ends', () => {
    expect(texts('a: 1\r\n---\r\nb: 2\r\n')).toEqual(['a: 1\r\n', '---\r\nb: 2\r\n']);
  });

  it('an empty stream is one empty document', () => {
    expect(texts('')).toEqual(['']);
  });

  it('stops at the document cap before reading further', () => {
    expect(() => splitDocuments('---\n'.repeat(11), 10)).toThrow(ManifestRejected);
    expect(splitDocuments('---\n'.repeat(10), 10)).toHaveLength(10);
  });
});

describe('DocumentSplitter (streaming)', () => {
  const stream = [
    '# header\n%YAML 1.2\n---\na: 1\n',
    '--- \nb: "x --- y"\n...\n',
    '---\r\nc: |\r\n  ---\r\n  text\r\n',
    '---\nd: 4',
  ].join('');

  it.each([1, 2, 3, 7, 64, stream.length])(
    'gives the same documents as the whole text, fed %i characters at a time',
    (size) => {
      const splitter = new DocumentSplitter();
      const chunks = [];
      for (let i = 0; i < stream.length; i += size) chunks.push(...splitter.push(stream.slice(i, i + size)));
      chunks.push(...splitter.end());
      expect(chunks).toEqual(splitDocuments(stream, 100));
      expect(chunks.map((c) => c.firstLine)).toEqual([0, 4, 7, 11]);
    },
  );

  it('gives each document as soon as the line after it starts, holding no more than one document', () => {
    const splitter = new DocumentSplitter();
    expect(splitter.push('a: 1\n---')).toEqual([]);
    expect(splitter.push('\nb: 2\n')).toEqual([{ text: 'a: 1\n', firstLine: 0 }]);
    expect(splitter.push('...\n')).toEqual([{ text: '---\nb: 2\n...\n', firstLine: 1 }]);
    expect(splitter.end()).toEqual([]);
  });

  it('has no document cap unless given one', () => {
    const splitter = new DocumentSplitter();
    expect(splitter.push('---\n'.repeat(5000))).toHaveLength(4999);
    expect(() => new DocumentSplitter(3).push('---\n'.repeat(5))).toThrow(ManifestRejected);
  });
});
