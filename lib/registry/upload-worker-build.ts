// The upload worker runs as plain JavaScript, like the sandbox worker (lib/sandbox/
// worker-build.ts): lib/registry/upload-worker.ts is bundled by esbuild into
// dist/registry/upload-worker.mjs (by `npm run build`, or by the first reader that finds
// the bundle missing or older than its sources). Packages stay external and load from
// the project's node_modules at run time.
import { buildSync } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BUILT_UPLOAD_WORKER = path.join('dist', 'registry', 'upload-worker.mjs');
const SOURCE_UPLOAD_WORKER = path.join('lib', 'registry', 'upload-worker.ts');
/** what the bundle is built from: a change to any of these rebuilds it */
const SOURCES = [path.join('lib', 'registry'), path.join('lib', 'skills'), path.join('lib', 'errors.ts')];

/** The project root: SKILLYARD_ROOT, else the working directory, else two folders above this file. */
export function uploadWorkerRoot(): string {
  const candidates = [process.env.SKILLYARD_ROOT, process.cwd()];
  try {
    // import.meta.url alone (not new URL('.', …), which a bundler takes for an asset to resolve)
    candidates.push(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..'));
  } catch {
    // bundled: import.meta.url is not a file: URL
  }
  for (const root of candidates) {
    if (root && (existsSync(path.join(root, SOURCE_UPLOAD_WORKER)) || existsSync(path.join(root, BUILT_UPLOAD_WORKER)))) return root;
  }
  throw new Error(`upload worker not found (${BUILT_UPLOAD_WORKER} or ${SOURCE_UPLOAD_WORKER}); set SKILLYARD_ROOT to the project root`);
}

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

/** Bundles upload-worker.ts into `out` (atomically: concurrent builders never see half a file). */
export function buildUploadWorker(root: string, out = path.join(root, BUILT_UPLOAD_WORKER)): string {
  mkdirSync(path.dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}.${Date.now()}.tmp`;
  buildSync({
    entryPoints: [path.join(root, SOURCE_UPLOAD_WORKER)],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    logLevel: 'silent',
    banner: { js: '// Built from lib/registry/upload-worker.ts by lib/registry/upload-worker-build.ts: do not edit.' },
  });
  renameSync(tmp, out);
  return out;
}

/** The worker file: the bundle, rebuilt first when the sources are newer; the bundle alone without sources. */
export function resolveUploadWorkerFile(): string {
  const root = uploadWorkerRoot();
  const built = path.join(root, BUILT_UPLOAD_WORKER);
  if (!existsSync(path.join(root, SOURCE_UPLOAD_WORKER))) return built;
  let builtMs = 0;
  try {
    builtMs = statSync(built).mtimeMs;
  } catch {
    // not built yet
  }
  if (builtMs < Math.max(...SOURCES.map((s) => newestSourceMs(path.join(/*turbopackIgnore: true*/ root, s))))) buildUploadWorker(root, built);
  return built;
}
