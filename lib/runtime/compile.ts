// Handler source → the ES module the sandbox loads. TypeScript and ESM are transpiled to
// CommonJS with esbuild so the wrapper in guest.ts can reach every export (including an
// anonymous default) and call it with the format's convention. Results are cached by source.

import { build, transform } from 'esbuild';
import { posix } from 'node:path';
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

const LOADERS: Record<string, 'js' | 'ts' | 'json'> = { '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.json': 'json' };

function loaderFor(p: string): 'js' | 'ts' | 'json' {
  return LOADERS[posix.extname(p)] ?? 'js';
}

/**
 * A handler file plus the package files it imports (relative imports only, read through
 * `readFile`, never from disk or node_modules), bundled into one module. Bare imports stay
 * out and fail at run time with a clear message. `files` is the package's file list.
 */
export async function compileHandlerPackage(entry: string, files: readonly string[], readFile: (path: string) => Promise<string>): Promise<string> {
  const known = new Set(files);
  const candidates = (base: string) => {
    const noJs = base.replace(/\.(m|c)?js$/, '');
    return [base, `${noJs}.ts`, `${noJs}.mts`, `${base}.ts`, `${base}.js`, `${base}.mjs`, `${base}/index.ts`, `${base}/index.js`];
  };
  try {
    const out = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: 'cjs',
      platform: 'neutral',
      target: 'es2022',
      logLevel: 'silent',
      plugins: [
        {
          name: 'skill-package',
          setup(b) {
            b.onResolve({ filter: /.*/ }, (args) => {
              if (args.kind === 'entry-point') return { path: args.path, namespace: 'pkg' };
              if (!args.path.startsWith('.')) return { path: args.path, external: true };
              const base = posix.normalize(posix.join(posix.dirname(args.importer), args.path));
              if (base.startsWith('..')) return { errors: [{ text: `${args.path} is outside the package` }] };
              const found = candidates(base).find((c) => known.has(c));
              return found ? { path: found, namespace: 'pkg' } : { errors: [{ text: `cannot find ${args.path} in the package` }] };
            });
            b.onLoad({ filter: /.*/, namespace: 'pkg' }, async (args) => ({ contents: await readFile(args.path), loader: loaderFor(args.path) }));
          },
        },
      ],
    });
    return wrapGuestModule(out.outputFiles[0].text);
  } catch (err) {
    const e = err as { errors?: Array<{ text: string; location?: { file: string; line: number } | null }>; message?: string };
    const first = e.errors?.[0];
    const where = first?.location ? ` (${first.location.file.replace(/^pkg:/, '')}:${first.location.line})` : '';
    throw new RuntimeError('runtime/compile-error', `handler does not compile: ${first?.text ?? e.message ?? String(err)}${where}`);
  }
}
