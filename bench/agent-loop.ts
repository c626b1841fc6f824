// Agent loop overhead per step without a model: the scripted provider replays N turns,
// each one invoke call whose code calls a trivial tool once. Measured three ways:
//   loopOnly   a stub Sandbox that answers at once (policy + LLM loop + trace only)
//   inProcess  the real isolated-vm sandbox in this process (warm isolate per run)
//   workers    the real worker-process pool (what the server uses)
// Run: node --no-node-snapshot --import tsx bench/agent-loop.ts   Prints JSON.
import os from 'node:os';
import { runAgent } from '../lib/agent/run-agent';
import { createScriptedProvider } from '../lib/agent/providers/scripted';
import type { AgentToolHost } from '../lib/agent/types';
import { createSandboxPool } from '../lib/sandbox/pool';
import type { Sandbox } from '../lib/sandbox/types';

const STEPS = Number(process.env.BENCH_STEPS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const manifest = {
  name: 'noop',
  sourceName: 'noop',
  description: 'returns its input',
  role: null,
  visibility: null,
  tags: [],
  params: { type: 'object' },
  returns: null,
  capabilities: [],
  inputTokens: {},
  outputTokens: {},
  handler: { kind: 'none' as const, ref: null },
  executor: null,
  timeoutMs: null,
  skill: 'bench',
};
const tools: AgentToolHost = { listTools: async () => [manifest], invoke: async (_ref, args) => args };

// The stub answers like an isolate would: one host call (the tool), memory round trip.
const stub: Sandbox = {
  async run(job, onHostCall) {
    const value = job.source.includes('ctx.finish(') ? await onHostCall('finish', [1]) : await onHostCall('invoke', ['noop', { i: 1 }]);
    return { ok: true, value, globals: { memory: job.globals?.memory ?? {}, __agentLogs: [] }, stats: { wallMs: 0, cold: false } };
  },
  async close() {},
};

const CODE = 'memory.i = (memory.i ?? 0) + 1; return await ctx.invoke("noop", { i: memory.i });';

async function measure(sandbox: Sandbox): Promise<{ msPerStep: number; best: number; worst: number }> {
  const perStep: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const turns = [...Array.from({ length: STEPS - 1 }, () => CODE), 'ctx.finish(memory.i)'];
    let events = 0;
    const t0 = performance.now();
    const res = await runAgent({
      task: 'bench',
      provider: createScriptedProvider(turns),
      tools,
      sandbox,
      maxSteps: STEPS,
      maxTurns: STEPS,
      onEvent: () => void events++,
    });
    const ms = performance.now() - t0;
    if (res.status !== 'completed' || res.steps !== STEPS) throw new Error(`bench run failed: ${JSON.stringify(res.error)}`);
    if (round > 0) perStep.push(ms / STEPS); // round 0 warms up JIT and isolates
  }
  const round3 = (n: number) => Math.round(n * 1000) / 1000;
  return {
    msPerStep: round3(perStep.reduce((a, b) => a + b, 0) / perStep.length),
    best: round3(Math.min(...perStep)),
    worst: round3(Math.max(...perStep)),
  };
}

const loopOnly = await measure(stub);
const inProcessPool = createSandboxPool({ inProcess: true });
const inProcess = await measure(inProcessPool);
await inProcessPool.close();
const workerPool = createSandboxPool({ workers: 1 });
const workers = await measure(workerPool);
await workerPool.close();

console.log(
  JSON.stringify(
    {
      benchmark: 'agent-loop',
      stepsPerRun: STEPS,
      rounds: ROUNDS,
      loopOnly,
      inProcess,
      workers,
      target: { loopOnlyMsPerStep: 2 },
      node: process.version,
      cpus: os.cpus().length,
    },
    null,
    2,
  ),
);
