import { ManifestRejected } from '../../../src/validation';
import { splitDocuments } from '../../../src/validation/manifest/split-documents';

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
