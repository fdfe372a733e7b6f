import { treeDigests, type DirectoryDigests } from '../delivery-layout/render-digest';
import { yaml } from './argocd-objects';

/**
 * A rendered tree, path -> YAML text, that also keeps the objects the generator dumped into its own Kubernetes
 * manifests (Deployments, Services, ConfigMaps): validation reads those objects instead of parsing the text back
 * (validateDelivery; issue 46: the parse was a sixth of a 1,000-Application generate's CPU). Files the generator copies
 * (a chart's or kustomize base's output, extra manifests written by users) have text only.
 */
export class RenderedFiles extends Map<string, string> {
  /** The generated manifests' objects by path, each the value its text was dumped from. */
  readonly objects = new Map<string, unknown>();
  /**
   * This tree's digests once asked, until the tree changes: shared with the copies made before any change (a generate
   * asks of its copy of a render, and the commit path of another copy of the same render).
   */
  private known: { digests?: { digest: string; directories: DirectoryDigests } } = {};

  /** The tree's digest (treeDigests): what a generate validated, compared by the commit path. */
  digest(): string {
    this.known.digests ??= treeDigests(this);
    return this.known.digests.digest;
  }

  /**
   * renderDigest of `files` when they are exactly this tree's Application directory `dir` (the same paths and texts)
   * and the tree's digest was asked already; else undefined.
   */
  directoryDigest(dir: string, files: ReadonlyMap<string, string>): string | undefined {
    const known = this.known.digests?.directories.get(dir);
    if (!known || known.files !== files.size) return undefined;
    for (const [path, text] of files) if (this.get(path) !== text) return undefined;
    return known.digest;
  }

  /** Writes `value` as the YAML text of `path`, keeping the value beside it. */
  setObject(path: string, value: unknown): void {
    this.set(path, yaml(value));
    this.objects.set(path, value);
  }

  /** Text written over a generated file no longer says what its object does: the object goes. */
  override set(path: string, text: string): this {
    this.known = {};
    this.objects.delete(path);
    return super.set(path, text);
  }

  override delete(path: string): boolean {
    this.known = {};
    this.objects.delete(path);
    return super.delete(path);
  }

  override clear(): void {
    this.known = {};
    this.objects.clear();
    super.clear();
  }

  /** The files `keep` picks, with their objects. */
  filtered(keep: (path: string) => boolean): RenderedFiles {
    const out = new RenderedFiles();
    for (const [path, text] of this) if (keep(path)) out.copyEntry(this, path, text);
    return out;
  }

  /** A copy the caller may change without touching this tree. */
  copy(): RenderedFiles {
    const out = this.filtered(() => true);
    out.known = this.known;
    return out;
  }

  private copyEntry(from: RenderedFiles, path: string, text: string): void {
    super.set(path, text);
    const value = from.objects.get(path);
    if (value !== undefined) this.objects.set(path, value);
  }
}
