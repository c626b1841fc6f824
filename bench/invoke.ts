// Tool-call cost, one small tool (count words), every path measured in one run.
// Run: npm run bench:invoke   (node --no-node-snapshot --import tsx bench/invoke.ts [--quick])
// Prints one JSON object (µs per call, median of 5 rounds unless noted):
//   isolatedVm.syncUs        isolated-vm alone, applySync of a warm function, JSON text in and out
//   isolatedVm.asyncUs       the same with async apply and a promise result (what was called "raw")
//   skillyard.warm*          the tool's sandbox job (the job the kernel builds: prelude, envelope)
//                            on a warm isolate: Sandbox.run in process / through worker processes;
//                            kernel* adds the whole pipeline (resolve, Ajv params/returns, onion...)
//   skillyard.cold*          a job that needs a new isolate (a new key each call), in process: with
//                            the default spare isolate, and without spares (setup on the call's path)
//   bare.coldUs              new Isolate + context + compile + call + dispose, nothing else
//   subprocessUs             `node -e` per call
//   quickjs.warmUs/freshUs   quickjs-emscripten (WebAssembly): a call in a warm context / a fresh
//                            context per call (new context + eval + call + dispose)
//   floor.pipeRoundTripUs    a bare round trip between two node processes over a pipe (an echo,
//                            no work): the floor under any call through a worker process, with the
//                            echo sleeping in its event loop / polling (as the pool's workers do)
//   targets                  warm via workers <= 20x sync, in process <= 5x sync, cold <= 2x bare
import { spawn, spawnSync } from 'node:child_process';
import type { Duplex } from 'node:stream';
import ivm from 'isolated-vm';
import { getQuickJS } from 'quickjs-emscripten';
import { createToolManager } from '../lib/runtime';
import { codeSkill } from '../lib/runtime/testing/skills';
import { createSandboxPool, type SandboxPool } from '../lib/sandbox/pool';
import type { Sandbox, SandboxJob } from '../lib/sandbox/types';

const quick = process.argv.includes('--quick');
const HANDLER = 'export default async function (ctx, { text }) { return { count: text.split(/\\s+/).filter(Boolean).length }; }';
const FN = `function (args) { const { text } = JSON.parse(args); return JSON.stringify({ count: text.split(/\\s+/).filter(Boolean).length }); }`;
const ARGS = { text: 'the quick brown fox jumps over the lazy dog' };
const ARGS_JSON = JSON.stringify(ARGS);
const EXPECT = '{"count":9}';

/** µs per call: median of individually timed calls (for slow or stateful calls) */
async function eachCall(n: number, fn: () => unknown, warmup = 5): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    xs.push(Number(process.hrtime.bigint() - t0) / 1e3);
  }
  return median(xs);
}
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
const check = (ok: boolean, what: string) => {
  if (!ok) throw new Error(`bench: wrong result from ${what}`);
};

const skill = codeSkill('count', HANDLER, {
  params: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  returns: { type: 'object', properties: { count: { type: 'number' } }, required: ['count'] },
});
const caller = (id: string) => ({ id, kind: 'user' as const, tokens: [] });

/** The sandbox job the kernel builds for one call of the tool. */
async function recordJob(sandbox: SandboxPool): Promise<SandboxJob> {
  let job: SandboxJob | null = null;
  const spy: Sandbox = { run: (j, h) => ((job = j), sandbox.run(j, h)), close: async () => {} };
  const manager = createToolManager({ skills: [skill], caller: caller('bench'), sandbox: spy });
  check(((await manager.invoke('count', ARGS)) as { count: number }).count === 9, 'kernel');
  return job!;
}

function subprocess(): Promise<number> {
  const script = `const f = ${HANDLER.replace('export default ', '')}; let s = ''; process.stdin.on('data', (d) => (s += d)); process.stdin.on('end', async () => process.stdout.write(JSON.stringify(await f({}, JSON.parse(s)))));`;
  return eachCall(
    quick ? 5 : 15,
    () => {
      const out = spawnSync(process.execPath, ['-e', script], { input: ARGS_JSON, encoding: 'utf8' });
      check(out.stdout === EXPECT, 'subprocess');
    },
    1,
  );
}

/** µs per round trip of a small message to a node process that echoes it on fd 3. */
async function pipeRoundTrip(polling: boolean): Promise<number> {
  const echo = polling
    ? "const fs = require('fs'); const b = Buffer.alloc(65536); for (;;) { let n = -1; try { n = fs.readSync(3, b); } catch (e) { if (e.code !== 'EAGAIN') throw e; } if (n === 0) process.exit(0); if (n > 0) fs.writeSync(3, b, 0, n); }"
    : "const s = new (require('net').Socket)({ fd: 3, readable: true, writable: true }); s.on('data', (d) => s.write(d));";
  const child = spawn(process.execPath, ['-e', echo], { stdio: ['ignore', 'inherit', 'inherit', 'pipe'] });
  const pipe = child.stdio[3] as Duplex;
  const message = Buffer.alloc(512, 'x');
  const n = quick ? 500 : 3000;
  const us = await new Promise<number>((resolve) => {
    let i = 0;
    let t0 = 0n;
    pipe.on('data', () => {
      if (++i === 100) t0 = process.hrtime.bigint();
      if (i === 100 + n) return resolve(Number(process.hrtime.bigint() - t0) / 1e3 / n);
      pipe.write(message);
    });
    pipe.write(message);
  });
  child.kill('SIGKILL');
  return us;
}

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

// Every subject is set up first, then measured against the synchronous call in paired
// batches: the machine is shared and its load drifts by the second.
const isolate = new ivm.Isolate({ memoryLimit: 64 });
const context = isolate.createContextSync();
const syncFn = context.evalSync(`(${FN})`, { reference: true }) as ivm.Reference;
const asyncFn = context.evalSync(`(async ${FN})`, { reference: true }) as ivm.Reference;
check(syncFn.applySync(undefined, [ARGS_JSON]) === EXPECT, 'applySync');

const inProcess = createSandboxPool({ inProcess: true, workers: 1, maxIdleIsolates: 8 });
const noSpares = createSandboxPool({ inProcess: true, workers: 1, maxIdleIsolates: 8, spareIsolates: 0 });
const workers = createSandboxPool({ workers: 1 });
const job = await recordJob(inProcess);
const answer = async () => null;
const runJob = (sandbox: SandboxPool) => async () => {
  const r = await sandbox.run(job, answer);
  if (!r.ok) throw new Error(`bench: ${r.error.code} ${r.error.message}`);
};
const kernelIn = createToolManager({ skills: [skill], caller: caller('bench'), sandbox: inProcess });
const kernelWorkers = createToolManager({ skills: [skill], caller: caller('bench'), sandbox: workers });
const QuickJS = await getQuickJS();
const qvm = QuickJS.newContext();
const qfn = qvm.unwrapResult(qvm.evalCode(`(${FN})`));
const quickWarm = () => {
  const arg = qvm.newString(ARGS_JSON);
  const res = qvm.unwrapResult(qvm.callFunction(qfn, qvm.undefined, arg));
  const out = qvm.getString(res);
  res.dispose();
  arg.dispose();
  check(out === EXPECT, 'quickjs warm');
};
const quickFresh = () => {
  const ctx = QuickJS.newContext();
  const fn = ctx.unwrapResult(ctx.evalCode(`(${FN})`));
  const arg = ctx.newString(ARGS_JSON);
  const res = ctx.unwrapResult(ctx.callFunction(fn, ctx.undefined, arg));
  check(ctx.getString(res) === EXPECT, 'quickjs fresh');
  res.dispose();
  arg.dispose();
  fn.dispose();
  ctx.dispose();
};
const bareCall = () => {
  const iso = new ivm.Isolate({ memoryLimit: 64 });
  const ctx = iso.createContextSync();
  const script = iso.compileScriptSync(`(${FN})`);
  const fn = script.runSync(ctx, { reference: true }) as ivm.Reference;
  check(fn.applySync(undefined, [ARGS_JSON]) === EXPECT, 'bare cold');
  iso.dispose();
};
let coldKey = 0;
const coldCall = (sandbox: SandboxPool) => async () => {
  const r = await sandbox.run({ ...job, key: `user:cold-${++coldKey}|count` }, answer);
  if (!r.ok || !r.stats.cold) throw new Error(`bench: cold call failed ${JSON.stringify(r)}`);
};
// Paired batches: a batch of the baseline, then a batch of the subject, many times; the
// ratio is taken per pair (both saw the same load) and the median of those is reported.
async function batchUs(n: number, fn: () => unknown): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  return Number(process.hrtime.bigint() - t0) / 1e3 / n;
}
type Pairs = { us: number; baseUs: number; ratio: number };
async function paired(pairs: number, n: number, subject: () => unknown, base: () => unknown, baseN = n): Promise<Pairs> {
  await batchUs(Math.ceil(n / 2), subject);
  await batchUs(Math.ceil(baseN / 2), base);
  const us: number[] = [],
    baseUs: number[] = [],
    ratios: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const b = await batchUs(baseN, base);
    const s = await batchUs(n, subject);
    us.push(s);
    baseUs.push(b);
    ratios.push(s / b);
  }
  return { us: median(us), baseUs: median(baseUs), ratio: median(ratios) };
}
const sync = () => syncFn.applySync(undefined, [ARGS_JSON], { timeout: 1000 });
const pause = () => new Promise((resolve) => setTimeout(resolve, 1));
const P = quick ? 15 : 60; // pairs
const W = quick ? 50 : 200; // warm calls per batch

const asyncP = await paired(P, W, () => asyncFn.apply(undefined, [ARGS_JSON], { result: { promise: true, copy: true }, timeout: 1000 }), sync, W * 4);
const warmInP = await paired(P, W, runJob(inProcess), sync, W * 4);
const warmWorkersP = await paired(P, W, runJob(workers), sync, W * 4);
const kernelInP = await paired(P, W, () => kernelIn.invoke('count', ARGS), sync, W * 4);
const kernelWorkersP = await paired(P, W, () => kernelWorkers.invoke('count', ARGS), sync, W * 4);
const quickWarmP = await paired(P, W, quickWarm, sync, W * 4);
const quickFreshP = await paired(P, Math.ceil(W / 10), quickFresh, sync, W * 4);
// cold: one call per batch, a pause after each (the engine refills its spare between requests)
const bareTimed = async () => {
  bareCall();
  await pause();
};
const coldTimed = (sandbox: SandboxPool) => async () => {
  await coldCall(sandbox)();
  await pause();
};
const C = quick ? 20 : 80;
const coldP = await paired(C, 1, coldTimed(inProcess), bareTimed);
const coldNoSpareP = await paired(C, 1, coldTimed(noSpares), bareTimed);
const pauseUs = await batchUs(20, pause);

const sub = await subprocess();
const pipeSleeping = await pipeRoundTrip(false);
const pipePolling = await pipeRoundTrip(true);
await inProcess.close();
await noSpares.close();
const lane = workers.stats().lane;
await workers.close();
isolate.dispose();
qfn.dispose();
qvm.dispose();

const minusPause = (x: number) => Math.max(0, x - pauseUs);
const coldRatio = (p: Pairs) => minusPause(p.us) / minusPause(p.baseUs);
const result = {
  node: process.version,
  quick,
  pairs: P,
  lane,
  isolatedVm: { syncUs: round(warmInP.baseUs, 2), asyncUs: round(asyncP.us) },
  skillyard: {
    warmInProcessUs: round(warmInP.us),
    warmViaWorkersUs: round(warmWorkersP.us),
    kernelWarmInProcessUs: round(kernelInP.us),
    kernelWarmViaWorkersUs: round(kernelWorkersP.us),
    coldUs: round(minusPause(coldP.us)),
    coldWithoutSpareUs: round(minusPause(coldNoSpareP.us)),
  },
  bare: { coldUs: round(minusPause(coldP.baseUs)) },
  subprocessUs: round(sub, 0),
  floor: { pipeRoundTripUs: { sleeping: round(pipeSleeping), polling: round(pipePolling) } },
  quickjs: { warmUs: round(quickWarmP.us, 2), freshUs: round(quickFreshP.us) },
  ratios: {
    asyncOverSync: round(asyncP.ratio, 1),
    warmViaWorkersOverSync: round(warmWorkersP.ratio, 1),
    warmInProcessOverSync: round(warmInP.ratio, 1),
    kernelWarmViaWorkersOverSync: round(kernelWorkersP.ratio, 1),
    kernelWarmInProcessOverSync: round(kernelInP.ratio, 1),
    quickjsWarmOverSync: round(quickWarmP.ratio, 1),
    quickjsFreshOverSync: round(quickFreshP.ratio, 1),
    coldOverBare: round(coldRatio(coldP), 2),
    coldWithoutSpareOverBare: round(coldRatio(coldNoSpareP), 2),
    subprocessOverWarmViaWorkers: round(sub / warmWorkersP.us, 0),
    pipeRoundTripSleepingOverSync: round(pipeSleeping / warmInP.baseUs, 1),
    pipeRoundTripPollingOverSync: round(pipePolling / warmInP.baseUs, 1),
  },
  targets: {
    warmViaWorkersWithin20xSync: warmWorkersP.ratio <= 20,
    warmInProcessWithin5xSync: warmInP.ratio <= 5,
    coldWithin2xBare: coldRatio(coldP) <= 2,
  },
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
