// lib/runs: agent runs as stored and run: create, fork, control, read, stream and compare
// them, and the worker that runs them (what it needs of the server is passed in:
// run-server.ts). instrumentation.ts and scripts/worker.ts start the worker.
import 'server-only';
export { createRun } from './create-run';
export { forkRun, ForkVersionsSchema } from './fork-run';
export { cancelRun, submitManualTurn } from './control-run';
export { getRun, type RunAccess, type RunView } from './get-run';
export { listUserRuns } from './list-user-runs';
export { compareRuns, type RunComparison } from './compare-runs';
export { describeRunPins, type PinnedSkillNow } from './describe-run-pins';
export { type RunPins } from './run-pins';
export { RunConfigSchema } from './run-config';
export { runEventBus } from './run-event-bus';
export { runEventPage } from './run-event-page';
export { streamRunEvents } from './stream-run-events';
export { parseAfterSeq } from './parse-after-seq';
export { learnRunSecrets } from './run-secrets';
export { availableProviders } from './server-providers';
export { startUpgradeCheck, readUpgradeCheck, MAX_UPGRADE_RUNS, type UpgradeCheck, type UpgradeResult } from './upgrade-check';
export { processDraining, runWorkerHealth } from './worker-health';
export { type RunServer, type RunRuntime } from './run-server';
