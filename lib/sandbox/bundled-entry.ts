// A worker that runs as plain JavaScript: its TypeScript entry is bundled by esbuild into
// dist/ (by `npm run build`, or by the first user that finds the bundle missing or older
// than its sources), so production needs no tsx at run time. Used by the sandbox worker
// (worker-build.ts) and the upload worker (lib/registry/upload-worker-build.ts).
import { buildSync } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setting } from '../config';

export type BundledEntrySpec = {
  /** what it is, for errors ("sandbox worker") */
  name: string;
  /** the TypeScript entry and the bundle, relative to the project root */
  source: string;
  built: string;
  /** files and folders (relative, recursive) whose change rebuilds the bundle */
  watch: string[];
  /** what stays outside the bundle: the named packages, or every package */
  external: string[] | 'packages';
};

export type BundledEntry = {
  /** the project root: SKILLYARD_ROOT, else the working directory, else two folders above this file */
  root(): string;
  /** bundles the entry into `out` (atomically: concurrent builders never see half a file) */
  build(root: string, out?: string): string;
  /** the bundle, rebuilt first when the sources are newer; the bundle alone when the sources are absent (a deployment that ships only dist/) */
  resolve(): string;
};

function newestSourceMs(p: string): number {
  let stat;
  try {
    stat = statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return p.endsWith('.ts') && !p.endsWith('.test.ts') ? stat.mtimeMs : 0;
  let newest = 0;
  for (const name of readdirSync(p)) if (name !== 'fixtures') newest = Math.max(newest, newestSourceMs(path.join(/*turbopackIgnore: true*/ p, name)));
  return newest;
}

export function bundledEntry(spec: BundledEntrySpec): BundledEntry {
  const root = (): string => {
    const candidates = [setting('SKILLYARD_ROOT'), process.cwd()];
    try {
      // import.meta.url alone (not new URL('.', …), which a bundler takes for an asset to resolve)
      candidates.push(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..'));
    } catch {
      // bundled: import.meta.url is not a file: URL
    }
    for (const r of candidates) {
      if (r && (existsSync(path.join(/*turbopackIgnore: true*/ r, spec.source)) || existsSync(path.join(/*turbopackIgnore: true*/ r, spec.built)))) return r;
    }
    throw new Error(`${spec.name} not found (${spec.built} or ${spec.source}); set SKILLYARD_ROOT to the project root`);
  };
  const build = (r: string, out = path.join(/*turbopackIgnore: true*/ r, spec.built)): string => {
    mkdirSync(path.dirname(out), { recursive: true });
    const tmp = `${out}.${process.pid}.${Date.now()}.tmp`;
    buildSync({
      entryPoints: [path.join(/*turbopackIgnore: true*/ r, spec.source)],
      outfile: tmp,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      ...(spec.external === 'packages' ? { packages: 'external' as const } : { external: spec.external }),
      logLevel: 'silent',
      banner: { js: `// Built from ${spec.source} by lib/sandbox/bundled-entry.ts: do not edit.` },
    });
    renameSync(tmp, out);
    return out;
  };
  const resolve = (): string => {
    const r = root();
    const built = path.join(/*turbopackIgnore: true*/ r, spec.built);
    if (!existsSync(path.join(/*turbopackIgnore: true*/ r, spec.source))) return built;
    let builtMs = 0;
    try {
      builtMs = statSync(built).mtimeMs;
    } catch {
      // not built yet
    }
    if (builtMs < Math.max(...spec.watch.map((w) => newestSourceMs(path.join(/*turbopackIgnore: true*/ r, w))))) build(r, built);
    return built;
  };
  return { root, build, resolve };
}
