// `npm run build` step: bundles the render worker into dist/render/render-worker.mjs.
import { buildRenderWorker, renderWorkerRoot } from './render-worker-build';

const out = buildRenderWorker(renderWorkerRoot());
console.log(`[skillyard] render worker built: ${out}`);
