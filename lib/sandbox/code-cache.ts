// V8 code cache per source text: a cold isolate compiles the bridge, a prelude or a handler
// from cached data instead of parsing it again ("pre-compiled handler scripts cached per
// version": a version's source text is its key). Bounded LRU by entries and bytes.
import ivm from 'isolated-vm';

const MAX_ENTRIES = 256;
const MAX_BYTES = 64 * 2 ** 20;

type Entry = { data: ivm.ExternalCopy<ArrayBuffer>; bytes: number };

export class CodeCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  get(source: string): ivm.ExternalCopy<ArrayBuffer> | undefined {
    const e = this.entries.get(source);
    if (!e) return undefined;
    this.entries.delete(source);
    this.entries.set(source, e);
    return e.data;
  }

  /** Keeps what a compile produced (`cachedData`), or forgets rejected data. */
  remember(source: string, compiled: object): void {
    const result = compiled as { cachedData?: ivm.ExternalCopy<ArrayBuffer>; cachedDataRejected?: boolean };
    if (result.cachedDataRejected) this.forget(source);
    const data = result.cachedData;
    if (!data || this.entries.has(source)) return;
    const bytes = data.copy().byteLength + source.length;
    this.entries.set(source, { data, bytes });
    this.bytes += bytes;
    while (this.entries.size > MAX_ENTRIES || this.bytes > MAX_BYTES) this.forget(this.entries.keys().next().value as string);
  }

  private forget(source: string): void {
    const e = this.entries.get(source);
    if (!e) return;
    this.entries.delete(source);
    this.bytes -= e.bytes;
    e.data.release();
  }

  clear(): void {
    for (const source of [...this.entries.keys()]) this.forget(source);
  }
}

/** Compile options: consume cached data when there is some, else produce it. */
export function cacheOptions(cache: CodeCache, source: string, filename: string): { filename: string; cachedData?: ivm.ExternalCopy<ArrayBuffer>; produceCachedData?: boolean } {
  const cachedData = cache.get(source);
  return cachedData ? { filename, cachedData } : { filename, produceCachedData: true };
}
