// Handler source → the ES module the sandbox loads. TypeScript and ESM are transpiled to
// CommonJS with esbuild so the wrapper in guest.ts can reach every export (including an
// anonymous default) and call it with the format's convention. Results are cached by source.

import { transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { RuntimeError } from './errors';
import { wrapGuestModule } from './guest';

const cache = new Map<string, Promise<string>>();
const hashes = new Map<string, string>();
const MAX_CACHE = 500;

/** Short content hash; remembered for compiled modules, which are hashed on every job. */
export function sourceHash(text: string): string {
  const hit = hashes.get(text);
  if (hit) return hit;
  const h = createHash('sha256').update(text).digest('hex').slice(0, 16);
  if (hashes.size >= MAX_CACHE) hashes.delete(hashes.keys().next().value as string);
  hashes.set(text, h);
  return h;
}

export function compileHandlerModule(source: string, loader: 'js' | 'ts'): Promise<string> {
  const key = `${loader}:${sourceHash(source)}`;
  let hit = cache.get(key);
  if (!hit) {
    hit = transform(source, { loader, format: 'cjs', target: 'es2022', sourcemap: false, logLevel: 'silent' })
      .then((out) => wrapGuestModule(out.code))
      .catch((err: { errors?: Array<{ text: string; location?: { line: number } | null }>; message?: string }) => {
        cache.delete(key);
        const first = err.errors?.[0];
        const where = first?.location ? ` (line ${first.location.line})` : '';
        throw new RuntimeError('runtime/compile-error', `handler does not compile: ${first?.text ?? err.message ?? String(err)}${where}`);
      });
    if (cache.size >= MAX_CACHE) cache.delete(cache.keys().next().value as string);
    cache.set(key, hit);
  }
  return hit;
}
