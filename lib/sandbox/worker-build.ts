// The sandbox worker runs as plain JavaScript: lib/sandbox/worker.ts is bundled by esbuild
// into dist/sandbox/worker.mjs (by `npm run build`, or by the first pool that finds the
// bundle missing or older than the sources), so production needs no tsx at run time.
import { buildSync } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BUILT_WORKER = path.join('dist', 'sandbox', 'worker.mjs');
const SOURCE_WORKER = path.join('lib', 'sandbox', 'worker.ts');

/** The project root: SKILLYARD_ROOT, else the working directory, else two folders above this file. */
export function sandboxRoot(): string {
  const candidates = [process.env.SKILLYARD_ROOT, process.cwd()];
  try {
    candidates.push(path.resolve(path.dirname(fileURLToPath(new URL('.', import.meta.url))), '..', '..'));
  } catch {
    // bundled: import.meta.url is not a file: URL
  }
  for (const root of candidates) {
    if (root && (existsSync(path.join(root, SOURCE_WORKER)) || existsSync(path.join(root, BUILT_WORKER)))) return root;
  }
  throw new Error(`sandbox worker not found (${BUILT_WORKER} or ${SOURCE_WORKER}); set SKILLYARD_ROOT to the project root`);
}

function newestSourceMs(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    if (name.endsWith('.ts') && !name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path.join(dir, name)).mtimeMs);
  }
  return newest;
}

/** Bundles worker.ts into `out` (atomically: concurrent builders never see half a file). */
export function buildSandboxWorker(root: string, out = path.join(root, BUILT_WORKER)): string {
  mkdirSync(path.dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}.${Date.now()}.tmp`;
  buildSync({
    entryPoints: [path.join(root, SOURCE_WORKER)],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    external: ['isolated-vm'],
    logLevel: 'silent',
    banner: { js: '// Built from lib/sandbox/worker.ts by lib/sandbox/worker-build.ts: do not edit.' },
  });
  renameSync(tmp, out);
  return out;
}

/**
 * The worker entry to fork: the built bundle, rebuilt first when the sources are newer;
 * the bundle alone when the sources are absent (a deployment that ships only dist/).
 */
export function resolveWorkerFile(explicit?: string): string {
  if (explicit) return explicit;
  const root = sandboxRoot();
  const built = path.join(root, BUILT_WORKER);
  const sources = path.join(root, 'lib', 'sandbox');
  if (!existsSync(path.join(root, SOURCE_WORKER))) return built;
  let builtMs = 0;
  try {
    builtMs = statSync(built).mtimeMs;
  } catch {
    // not built yet
  }
  if (builtMs < newestSourceMs(sources)) buildSandboxWorker(root, built);
  return built;
}

/** `node` flags for the worker: TypeScript entries (tests passing worker.ts) need tsx. */
export function workerExecArgv(file: string): string[] {
  return file.endsWith('.ts') ? ['--no-node-snapshot', '--import', 'tsx'] : ['--no-node-snapshot'];
}
