// Entry of a sandbox worker process (forked by pool.ts with --no-node-snapshot and tsx).
// It owns one engine; guest host calls are forwarded to the parent over IPC. A
// catastrophic isolate error ends this process, and the pool starts a fresh one.
import { SandboxEngine } from './engine';
import type { FromWorker, ToWorker } from './protocol';

const send = (message: FromWorker) => {
  if (process.connected) process.send!(message);
};

/** the worker's job id of each running job object (to name the culprit of a catastrophe) */
const jobIds = new WeakMap<object, number>();

// V8 lost control of an isolate (a builtin that ignores termination, out of memory while
// collecting): this process must go now. process.exit() can hang behind the stuck isolate
// thread, so the worker names the culprit and kills itself; the pool retries the others.
const engine = new SandboxEngine({
  maxIdleIsolates: Number(process.env.SKILLYARD_SANDBOX_MAX_IDLE ?? 32),
  onCatastrophicError: (message, job) => {
    const die = () => process.kill(process.pid, 'SIGKILL');
    setTimeout(die, 200);
    if (process.connected) process.send!({ t: 'fatal', message, j: job ? jobIds.get(job) : undefined } satisfies FromWorker, die);
    else die();
  },
});

type OpenCall = { j: number; resolve: (json: string | undefined) => void; reject: (error: unknown) => void };
let lastCall = 0;
const calls = new Map<number, OpenCall>();
/** open host calls per job, dropped when the job ends (a host call may never answer) */
const callsByJob = new Map<number, Set<number>>();

const cancels = new Map<number, AbortController>();

function runJob(j: number, job: Extract<ToWorker, { t: 'job' }>['job']): void {
  const open = new Set<number>();
  callsByJob.set(j, open);
  const cancel = new AbortController();
  cancels.set(j, cancel);
  const local = { ...job, signal: cancel.signal };
  jobIds.set(local, j);
  void engine
    .runRaw(local, (m, a) =>
      new Promise((resolve, reject) => {
        const c = ++lastCall;
        calls.set(c, { j, resolve, reject });
        open.add(c);
        send({ t: 'hc', j, c, m, a });
      }),
    )
    .then((r) => {
      for (const c of open) calls.delete(c);
      callsByJob.delete(j);
      cancels.delete(j);
      send({ t: 'res', j, r });
    });
}

process.on('message', (message: ToWorker) => {
  if (message.t === 'job') return runJob(message.j, message.job);
  if (message.t === 'cancel') return cancels.get(message.j)?.abort();
  if (message.t === 'hr') {
    const call = calls.get(message.c);
    if (!call) return;
    calls.delete(message.c);
    callsByJob.get(call.j)?.delete(message.c);
    if (message.ok) call.resolve(message.v);
    else call.reject(JSON.parse(message.v ?? '{"message":"host call failed"}'));
  }
});

// The parent went away: nobody can use our results, and we must not outlive it.
process.on('disconnect', () => process.exit(0));

send({ t: 'ready', pid: process.pid });
