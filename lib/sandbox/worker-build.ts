// The sandbox worker runs as plain JavaScript: lib/sandbox/worker.ts is bundled into
// dist/sandbox/worker.mjs (bundled-entry.ts), with isolated-vm left outside the bundle.
import path from 'node:path';
import { bundledEntry } from './bundled-entry';
import { setting } from '../config';

export const BUILT_WORKER = path.join('dist', 'sandbox', 'worker.mjs');

const entry = bundledEntry({
  name: 'sandbox worker',
  source: path.join('lib', 'sandbox', 'worker.ts'),
  built: BUILT_WORKER,
  watch: [path.join('lib', 'sandbox'), path.join('lib', 'config')],
  external: ['isolated-vm'],
});

/** The project root: SKILLYARD_ROOT, else the working directory, else two folders above this file. */
export const sandboxRoot = (): string => entry.root();

/** Bundles worker.ts into `out` (atomically: concurrent builders never see half a file). */
export const buildSandboxWorker = (root: string, out?: string): string => entry.build(root, out);

/**
 * The worker entry to fork: the built bundle, rebuilt first when the sources are newer;
 * the bundle alone when the sources are absent (a deployment that ships only dist/).
 */
export function resolveWorkerFile(explicit?: string): string {
  return explicit ?? entry.resolve();
}

/**
 * `node` flags for the worker: TypeScript entries (tests passing worker.ts) need tsx.
 * V8 collects garbage on the worker's own thread (`--single-threaded-gc`) unless
 * SKILLYARD_SANDBOX_GC=parallel: a worker's heaps are small (its own and its isolates', 64 MB
 * each by default), and the collector's helper threads were runnable tasks that preempted
 * the worker or the polling web process on a small machine (warm calls through a worker,
 * eight alternating runs: mean 49.9 → 42.9 µs, lower in six of eight pairs).
 */
export function workerExecArgv(file: string, gc = setting('SKILLYARD_SANDBOX_GC')): string[] {
  const flags = gc === 'parallel' ? ['--no-node-snapshot'] : ['--no-node-snapshot', '--single-threaded-gc'];
  return file.endsWith('.ts') ? [...flags, '--import', 'tsx'] : flags;
}
