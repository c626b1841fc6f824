// The highlight worker runs as plain JavaScript, like the upload worker: lib/highlight/
// highlight-worker.ts is bundled into dist/highlight/highlight-worker.mjs (lib/sandbox's
// bundledEntry). Shiki stays external and loads from the project's node_modules.
import path from 'node:path';
import { bundledEntry } from '../sandbox';

export const BUILT_HIGHLIGHT_WORKER = path.join('dist', 'highlight', 'highlight-worker.mjs');

const entry = bundledEntry({
  name: 'highlight worker',
  source: path.join('lib', 'highlight', 'highlight-worker.ts'),
  built: BUILT_HIGHLIGHT_WORKER,
  watch: [path.join('lib', 'highlight', 'highlight-worker.ts')],
  external: 'packages',
});

/** The project root: SKILLYARD_ROOT, else the working directory, else two folders above this file. */
export const highlightWorkerRoot = (): string => entry.root();

/** Bundles highlight-worker.ts into `out` (atomically: concurrent builders never see half a file). */
export const buildHighlightWorker = (root: string, out?: string): string => entry.build(root, out);

/** The worker file: the bundle, rebuilt first when the source is newer; the bundle alone without sources. */
export const resolveHighlightWorkerFile = (): string => entry.resolve();
