// `npm run build` step: bundles the sandbox worker into dist/sandbox/worker.mjs so the
// server's worker processes run plain JavaScript (no tsx at run time).
import { buildSandboxWorker, sandboxRoot } from './worker-build';

const out = buildSandboxWorker(sandboxRoot());
console.log(`[skillyard] sandbox worker built: ${out}`);
