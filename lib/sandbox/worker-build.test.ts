// The worker's node flags (worker-build.ts).
import { describe, expect, it } from 'vitest';
import { workerExecArgv } from './worker-build';

describe('workerExecArgv', () => {
  it('collects garbage on the worker thread unless SKILLYARD_SANDBOX_GC=parallel, and runs .ts entries through tsx', () => {
    expect(workerExecArgv('dist/sandbox/worker.mjs', undefined)).toEqual(['--no-node-snapshot', '--single-threaded-gc']);
    expect(workerExecArgv('dist/sandbox/worker.mjs', 'parallel')).toEqual(['--no-node-snapshot']);
    expect(workerExecArgv('lib/sandbox/worker.ts', undefined)).toEqual(['--no-node-snapshot', '--single-threaded-gc', '--import', 'tsx']);
  });
});
