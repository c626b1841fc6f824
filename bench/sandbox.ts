// Sandbox latency figures, printed as JSON.
// Run: node --no-node-snapshot --import tsx bench/sandbox.ts [--quick]
//
// raw          isolated-vm alone: host applies a guest async function that awaits one host
//              function and returns (host -> isolate -> host -> isolate -> host)
// warm*        one pool job on a warm isolate making the same single host call
//              (and a variant with no host call), in-process and through worker processes
// cold         one in-process job on a new isolate (context, bridge, module compile)
// subprocess   `node -e` per call, the alternative the sandbox replaces
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import ivm from 'isolated-vm';
import { createSandboxPool, type SandboxPool } from '../lib/sandbox/pool';
import type { HostCallHandler, SandboxJob } from '../lib/sandbox/types';

const quick = process.argv.includes('--quick');
const N = quick ? 300 : 2_000;
const WARMUP = quick ? 50 : 200;

type Figures = { n: number; medianUs: number; p95Us: number };

async function measure(n: number, warmup: number, once: (i: number) => Promise<unknown>): Promise<Figures> {
  for (let i = 0; i < warmup; i++) await once(i);
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await once(i);
    samples.push(Number(process.hrtime.bigint() - t) / 1_000);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => Math.round(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] * 10) / 10;
  return { n, medianUs: at(0.5), p95Us: at(0.95) };
}

async function rawRoundTrip(): Promise<Figures> {
  const isolate = new ivm.Isolate({ memoryLimit: 32 });
  const context = await isolate.createContext();
  await context.global.set('hostEcho', new ivm.Reference(async (x: number) => x));
  const fn = (await context.eval(`(async (x) => hostEcho.apply(undefined, [x], { arguments: { copy: true }, result: { promise: true, copy: true } }))`, {
    reference: true,
  })) as ivm.Reference;
  const figures = await measure(N, WARMUP, (i) => fn.apply(undefined, [i], { result: { promise: true, copy: true } }));
  isolate.dispose();
  return figures;
}

const echo: HostCallHandler = async (_method, args) => args[0];
const ECHO_SOURCE = 'export default async (x) => await host.echo(x)';
const PURE_SOURCE = 'export default (x) => x + 1';
const warmJob = (source: string, i: number): SandboxJob => ({ key: 'bench-warm', source, entry: 'default', args: [i], hostMethods: ['echo'] });

async function warm(pool: SandboxPool) {
  return {
    oneHostCall: await measure(N, WARMUP, (i) => pool.run(warmJob(ECHO_SOURCE, i), echo)),
    noHostCall: await measure(N, WARMUP, (i) => pool.run(warmJob(PURE_SOURCE, i), echo)),
  };
}

async function cold(pool: SandboxPool): Promise<Figures> {
  let key = 0;
  return measure(quick ? 50 : 200, 10, async () => {
    const res = await pool.run({ key: `cold-${++key}`, source: ECHO_SOURCE, entry: 'default', args: [1], hostMethods: ['echo'] }, echo);
    if (!res.ok || res.stats.cold !== true) throw new Error(`cold run failed: ${JSON.stringify(res)}`);
  });
}

async function subprocess(): Promise<Figures> {
  const run = promisify(execFile);
  return measure(quick ? 5 : 20, 2, () => run(process.execPath, ['-e', 'process.stdout.write(JSON.stringify(((x) => x + 1)(1)))']));
}

const raw = await rawRoundTrip();
const inProcess = createSandboxPool({ inProcess: true, workers: 1, maxIdleIsolates: 4 });
const warmInProcess = await warm(inProcess);
const coldInProcess = await cold(inProcess);
await inProcess.close();

const workers = createSandboxPool({ workers: 1 });
const warmWorkers = await warm(workers);
await workers.close();

const sub = await subprocess();
const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

console.log(
  JSON.stringify(
    {
      node: process.version,
      runs: N,
      rawRoundTripUs: raw,
      warmInProcessUs: warmInProcess,
      warmWorkerProcessUs: warmWorkers,
      coldInProcessUs: coldInProcess,
      subprocessPerCallUs: sub,
      ratios: {
        warmInProcessVsRaw: ratio(warmInProcess.oneHostCall.medianUs, raw.medianUs),
        warmWorkerVsRaw: ratio(warmWorkers.oneHostCall.medianUs, raw.medianUs),
        subprocessVsWarmWorker: ratio(sub.medianUs, warmWorkers.oneHostCall.medianUs),
        subprocessVsCold: ratio(sub.medianUs, coldInProcess.medianUs),
      },
      targets: { warmWithin3xOfRaw: '<= 3', coldUnder10ms: coldInProcess.medianUs < 10_000, atLeast20xFasterThanSubprocess: '>= 20' },
    },
    null,
    2,
  ),
);
