// The upload worker runs as plain JavaScript, like the sandbox worker: lib/registry/
// upload-worker.ts is bundled into dist/registry/upload-worker.mjs (lib/sandbox's
// bundledEntry). Packages stay external and load from the project's node_modules.
import path from 'node:path';
import { bundledEntry } from '../sandbox';

export const BUILT_UPLOAD_WORKER = path.join('dist', 'registry', 'upload-worker.mjs');

const entry = bundledEntry({
  name: 'upload worker',
  source: path.join('lib', 'registry', 'upload-worker.ts'),
  built: BUILT_UPLOAD_WORKER,
  // what the bundle is built from: a change to any of these rebuilds it
  watch: [path.join('lib', 'registry'), path.join('lib', 'skills'), path.join('lib', 'config'), path.join('lib', 'errors.ts')],
  external: 'packages',
});

/** The project root: SKILLYARD_ROOT, else the working directory, else two folders above this file. */
export const uploadWorkerRoot = (): string => entry.root();

/** Bundles upload-worker.ts into `out` (atomically: concurrent builders never see half a file). */
export const buildUploadWorker = (root: string, out?: string): string => entry.build(root, out);

/** The worker file: the bundle, rebuilt first when the sources are newer; the bundle alone without sources. */
export const resolveUploadWorkerFile = (): string => entry.resolve();
