// Recently read slices of stored packages, kept in memory up to a number of bytes (the
// least recently used go first). A version's bytes never change and a version id is never
// reused, so a slice read once serves every download of it that follows: a popular
// package, or a flood of downloads that stop reading (each had the Postgres store read and
// decode about 4 MB, 16 slices, before the kernel's socket buffers were full: 60 ms of the
// web process's CPU a download, all at once), costs socket writes, not reads.
import 'server-only';

export class SliceCache {
  private readonly slices = new Map<string, Uint8Array>();
  private held = 0;

  constructor(readonly maxBytes: number) {}

  get(key: string): Uint8Array | undefined {
    const bytes = this.slices.get(key);
    if (bytes) {
      // the most recently used last
      this.slices.delete(key);
      this.slices.set(key, bytes);
    }
    return bytes;
  }

  set(key: string, bytes: Uint8Array): void {
    if (bytes.byteLength > this.maxBytes) return;
    this.drop(key);
    this.slices.set(key, bytes);
    this.held += bytes.byteLength;
    for (const [oldest] of this.slices) {
      if (this.held <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  /** Drops every slice whose key starts with `prefix` (a version's, when its bytes are removed). */
  forget(prefix: string): void {
    for (const key of [...this.slices.keys()]) if (key.startsWith(prefix)) this.drop(key);
  }

  /** bytes held now */
  get size(): number {
    return this.held;
  }

  private drop(key: string): void {
    const bytes = this.slices.get(key);
    if (!bytes) return;
    this.slices.delete(key);
    this.held -= bytes.byteLength;
  }
}
