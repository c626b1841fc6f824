// `npm run build` step: bundles the upload worker into dist/registry/upload-worker.mjs.
import { buildUploadWorker, uploadWorkerRoot } from './upload-worker-build';

const out = buildUploadWorker(uploadWorkerRoot());
console.log(`[skillyard] upload worker built: ${out}`);
