// Pool sizes chosen from the machine, each overridable by an option or an environment
// variable. Guest code is CPU-bound, so more busy workers than cores only adds latency;
// memory bounds how many isolates may be alive at once (memoryLimit is soft: 3x budgeted).
import os from 'node:os';
import { DEFAULT_LIMITS } from './limits';
import { setting } from '../config';

export type PoolSizing = {
  workers: number;
  concurrency: number;
  queueLimit: number;
  perPrincipalQueueLimit: number;
  maxQueueWaitMs: number;
};

/** memory budgeted per running job: the default heap limit, 3x for the soft limit */
const JOB_BUDGET_MB = DEFAULT_LIMITS.memoryMb * 3;
/** a worker process without isolates (node + isolated-vm) */
const WORKER_BASE_MB = 64;
/** share of the machine's memory the sandbox may plan for */
const MEMORY_SHARE = 0.5;

export type MachineInfo = { cpus: number; totalMemMb: number };

export function machine(): MachineInfo {
  const cpus = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return { cpus: Math.max(1, cpus || 1), totalMemMb: Math.floor(os.totalmem() / 2 ** 20) };
}

/**
 * Defaults: workers = CPUs (at most 8, fewer if memory is short); jobs per worker = 4 (a
 * worker runs one guest at a time; the others wait on host calls or in its inbox);
 * queue = 32 per slot; one principal may fill at most an eighth of the queue; a job whose
 * estimated wait exceeds 5 s is refused (back-pressure before latency collapses).
 */
export function poolSizing(over: Partial<PoolSizing> = {}, m: MachineInfo = machine()): PoolSizing {
  const memoryMb = m.totalMemMb * MEMORY_SHARE;
  const concurrency = Math.max(1, over.concurrency ?? setting('SKILLYARD_SANDBOX_CONCURRENCY') ?? 4);
  const fitByMemory = Math.max(1, Math.floor(memoryMb / (WORKER_BASE_MB + concurrency * JOB_BUDGET_MB)));
  const workers = Math.max(1, over.workers ?? setting('SKILLYARD_SANDBOX_WORKERS') ?? Math.min(8, m.cpus, fitByMemory));
  const queueLimit = Math.max(0, over.queueLimit ?? setting('SKILLYARD_SANDBOX_QUEUE') ?? workers * concurrency * 32);
  const perPrincipalQueueLimit = Math.max(1, over.perPrincipalQueueLimit ?? setting('SKILLYARD_SANDBOX_QUEUE_PER_CALLER') ?? Math.max(8, Math.ceil(queueLimit / 8)));
  const maxQueueWaitMs = Math.max(0, over.maxQueueWaitMs ?? setting('SKILLYARD_SANDBOX_MAX_QUEUE_WAIT_MS') ?? 5_000);
  return { workers, concurrency, queueLimit, perPrincipalQueueLimit, maxQueueWaitMs };
}
