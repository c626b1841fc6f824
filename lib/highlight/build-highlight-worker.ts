// `npm run build` step: bundles the highlight worker into dist/highlight/highlight-worker.mjs.
import { buildHighlightWorker, highlightWorkerRoot } from './highlight-worker-build';

const out = buildHighlightWorker(highlightWorkerRoot());
console.log(`[skillyard] highlight worker built: ${out}`);
