// The render worker runs as plain JavaScript, like the upload worker: lib/render/
// render-worker.ts is bundled into dist/render/render-worker.mjs (lib/sandbox's
// bundledEntry). Shiki and React stay external and load from the project's node_modules.
import path from 'node:path';
import { bundledEntry } from '../sandbox';

export const BUILT_RENDER_WORKER = path.join('dist', 'render', 'render-worker.mjs');

const entry = bundledEntry({
  name: 'render worker',
  source: path.join('lib', 'render', 'render-worker.ts'),
  built: BUILT_RENDER_WORKER,
  watch: [path.join('lib', 'render', 'render-worker.ts'), path.join('lib', 'render', 'markdown-options.ts')],
  external: 'packages',
});

/** The project root: SKILLYARD_ROOT, else the working directory, else two folders above this file. */
export const renderWorkerRoot = (): string => entry.root();

/** Bundles render-worker.ts into `out` (atomically: concurrent builders never see half a file). */
export const buildRenderWorker = (root: string, out?: string): string => entry.build(root, out);

/** The worker file: the bundle, rebuilt first when the source is newer; the bundle alone without sources. */
export const resolveRenderWorkerFile = (): string => entry.resolve();
