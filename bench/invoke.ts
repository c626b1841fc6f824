// Tool invocation cost. Run: node --no-node-snapshot --import tsx bench/invoke.ts
// Prints one JSON object:
//   rawRoundTripUs  isolated-vm alone: host calls an async guest function with a JSON
//                   argument and awaits its JSON result (warm isolate and context)
//   warmCallUs      the same tool through the whole kernel pipeline (resolve, visibility,
//                   allowed-tools, token gate, Ajv params, onion, sandbox job on a warm
//                   isolate, returns validation)
//   coldCallMs      the same, but every call needs a new isolate (a new caller each time)
//   subprocessMs    the same tool run as `node -e` per call
//   split           where a warm call's time goes: sandboxRunUs (Sandbox.run of the same job,
//                   no kernel) and kernelOnlyUs (the pipeline with a sandbox that answers at once)
// Targets (docs/runtime.md): warm within 3x of raw; cold under 10 ms; >= 20x faster than a subprocess per call.

import { spawnSync } from 'node:child_process';
import ivm from 'isolated-vm';
import { createSandboxPool } from '../lib/sandbox/pool';
import { createToolManager } from '../lib/runtime';
import { codeSkill } from '../lib/runtime/testing/skills';
import type { Sandbox, SandboxJob } from '../lib/sandbox/types';

const HANDLER = 'export default async function (ctx, { text }) { return { count: text.split(/\\s+/).filter(Boolean).length }; }';
const ARGS = { text: 'the quick brown fox jumps over the lazy dog' };

async function timeEach(n: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  return Number(process.hrtime.bigint() - t0) / 1e6 / n; // ms per call
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function raw(): Promise<number> {
  const isolate = new ivm.Isolate({ memoryLimit: 64 });
  const context = await isolate.createContext();
  const fn = (await context.eval(
    `(async function (args) { const { text } = JSON.parse(args); return JSON.stringify({ count: text.split(/\\s+/).filter(Boolean).length }); })`,
    { reference: true },
  )) as ivm.Reference<(a: string) => Promise<string>>;
  const call = async () => JSON.parse(await fn.apply(undefined, [JSON.stringify(ARGS)], { result: { promise: true, copy: true } }));
  await timeEach(500, call);
  const runs = [];
  for (let r = 0; r < 5; r++) runs.push(await timeEach(2000, call));
  isolate.dispose();
  return median(runs);
}

async function main() {
  const rawMs = await raw();
  const sandbox = createSandboxPool({ inProcess: true, workers: 1, maxIdleIsolates: 8 });
  const skill = codeSkill('count', HANDLER, {
    params: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    returns: { type: 'object', properties: { count: { type: 'number' } }, required: ['count'] },
  });
  let lastJob: SandboxJob | null = null;
  const spy: Sandbox = { run: (job, onHostCall) => ((lastJob = job), sandbox.run(job, onHostCall)), close: async () => {} };
  const manager = createToolManager({ skills: [skill], caller: { id: 'bench', kind: 'user', tokens: [] }, sandbox: spy });
  const check = (await manager.invoke('count', ARGS)) as { count: number };
  if (check.count !== 9) throw new Error(`unexpected result ${JSON.stringify(check)}`);
  await timeEach(300, () => manager.invoke('count', ARGS));
  const warmRuns = [];
  for (let r = 0; r < 5; r++) warmRuns.push(await timeEach(1000, () => manager.invoke('count', ARGS)));
  const warmMs = median(warmRuns);

  const job = lastJob as SandboxJob | null;
  if (!job) throw new Error('no sandbox job was recorded');
  const sandboxRuns = [];
  for (let r = 0; r < 5; r++) sandboxRuns.push(await timeEach(1000, () => sandbox.run({ ...job, args: structuredClone(job.args) }, async () => null)));
  const instant: Sandbox = { run: async () => ({ ok: true, value: { v: { count: 9 } }, stats: { wallMs: 0, cold: false } }), close: async () => {} };
  const kernelOnly = createToolManager({ skills: [skill], caller: { id: 'bench', kind: 'user', tokens: [] }, sandbox: instant });
  await timeEach(2000, () => kernelOnly.invoke('count', ARGS));
  const kernelRuns = [];
  for (let r = 0; r < 5; r++) kernelRuns.push(await timeEach(5000, () => kernelOnly.invoke('count', ARGS)));

  // Cold: a new caller per call → a new warm-isolate key → a new isolate and context.
  let i = 0;
  const coldTimes: number[] = [];
  for (let r = 0; r < 60; r++) {
    const m = createToolManager({ skills: [skill], caller: { id: `cold-${i++}`, kind: 'user', tokens: [] }, sandbox });
    const t0 = process.hrtime.bigint();
    await m.invoke('count', ARGS);
    coldTimes.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const coldMs = median(coldTimes.slice(10));
  await sandbox.close();

  // The server's configuration: the same warm call with isolates in worker processes.
  const pool = createSandboxPool({ workers: 1 });
  const served = createToolManager({ skills: [skill], caller: { id: 'bench', kind: 'user', tokens: [] }, sandbox: pool });
  await timeEach(300, () => served.invoke('count', ARGS));
  const workerRuns = [];
  for (let r = 0; r < 5; r++) workerRuns.push(await timeEach(500, () => served.invoke('count', ARGS)));
  const warmWorkerMs = median(workerRuns);
  await pool.close();

  const nodeScript = `const f = ${HANDLER.replace('export default ', '')}; let s = ''; process.stdin.on('data', (d) => (s += d)); process.stdin.on('end', async () => process.stdout.write(JSON.stringify(await f({}, JSON.parse(s)))));`;
  const subTimes: number[] = [];
  for (let r = 0; r < 15; r++) {
    const t0 = process.hrtime.bigint();
    const out = spawnSync(process.execPath, ['-e', nodeScript], { input: JSON.stringify(ARGS), encoding: 'utf8' });
    subTimes.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (JSON.parse(out.stdout).count !== 9) throw new Error('subprocess gave a wrong result');
  }
  const subprocessMs = median(subTimes);

  const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
  const result = {
    node: process.version,
    rawRoundTripUs: round(rawMs * 1000),
    warmCallUs: round(warmMs * 1000),
    warmCallViaWorkerProcessUs: round(warmWorkerMs * 1000),
    coldCallMs: round(coldMs, 2),
    subprocessMs: round(subprocessMs, 1),
    split: { sandboxRunUs: round(median(sandboxRuns) * 1000), kernelOnlyUs: round(median(kernelRuns) * 1000) },
    warmOverRaw: round(warmMs / rawMs, 2),
    warmViaWorkerOverRaw: round(warmWorkerMs / rawMs, 2),
    subprocessOverWarm: round(subprocessMs / warmMs, 0),
    targets: {
      warmWithin3xOfRaw: warmMs <= 3 * rawMs,
      coldUnder10ms: coldMs < 10,
      atLeast20xFasterThanSubprocess: subprocessMs / warmMs >= 20,
    },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
