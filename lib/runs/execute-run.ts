// Runs one claimed run to its end: loads its skills for its owner, builds the kernel and
// the provider, drives the agent, and records every trace event and the outcome. The
// outcome is written only while this worker still holds the run (run-queue.ts); a run
// whose event log failed ends `failed` with that error, never `succeeded`.
import 'server-only';
import { createProvider, decideRunOutcome, OUTCOME_RULES, runAgent, type AgentTool, type AgentToolHost, type ProviderConfig } from '../agent';
import { createToolManager, lockedToolMessage, type LoadedSkill } from '../runtime';
import { loadSkillVersion, parseSkillRef, noteSkillCalls, skillOfTool } from '../registry';
import type { RunServer } from './run-server';
import { openRunEventLog, type RunEventLog, type RunFailure } from './run-event-log';
import { runEventBus } from './run-event-bus';
import { RunError } from './run-errors';
import { finishClaimedRun, type ClaimedRun, type RunOutcome } from './run-queue';
import type { RunSlot } from './run-slots';
import { errorContext, runsLog } from './runs-log';
import { modelConfig } from './server-providers';
import { userModelKey } from '../auth';
import { isAnonymousKey } from '../principal';
import { toStorableJson } from './storable-json';
import { createSecretScrubber, type SecretScrubber } from '../log';
import { learnRunSecrets } from './run-secrets';
import { takeRunTurn, type ManualTurn } from './run-turns';
import { pinFor, readRunPins } from './run-pins';
import { scriptFromTrace } from './manual-script';
import { AppError } from '../errors';
import type { Db } from '../db';

/** Loads each skill at the version the run was pinned to (its ref's own version or the latest for a run made before pins). */
async function loadPinnedSkills(db: Db, run: ClaimedRun) {
  const pins = readRunPins(run.pins);
  const viewer = run.userId ? { userId: run.userId } : null;
  return Promise.all(
    run.config.skills.map(async (text) => {
      const ref = parseSkillRef(text);
      const pin = pinFor(pins, text);
      const loaded = await loadSkillVersion(db, pin ? { ...ref, version: pin.version } : ref, viewer);
      // numbers are never reused, but a version can be deleted and the number published anew is refused: still, say so
      if (pin && loaded.revision !== pin.versionId) {
        throw new AppError('run/pin-changed', `${pin.ref}@${pin.version} is no longer the version this run was pinned to.`);
      }
      return loaded;
    }),
  );
}

/** The run's tool calls per skill, for the skill page's usage (lib/registry/skill-usage.ts); the code runner itself is no skill's. */
function noteRunCalls(db: Db, run: ClaimedRun, skills: LoadedSkill[], trace: Array<{ type: string; tool?: unknown; via?: unknown }>) {
  const tally = new Map<string, { calls: number; failed: number }>();
  for (const e of trace) {
    if ((e.type !== 'tool-result' && e.type !== 'tool-error') || typeof e.tool !== 'string' || (e.tool === 'invoke' && e.via === 'model')) continue;
    const skill = skillOfTool(skills, e.tool);
    if (!skill?.identity) continue;
    const t = tally.get(skill.identity) ?? { calls: 0, failed: 0 };
    t.calls++;
    if (e.type === 'tool-error') t.failed++;
    tally.set(skill.identity, t);
  }
  for (const [skillId, t] of tally) noteSkillCalls(db, { skillId, callerKey: run.principal, source: 'run', ...t });
}

/** A manual run's turns, once it ended: its pins then hold the code of every turn, as a scripted run's do. */
async function pinManualTurns(db: Db, run: ClaimedRun, trace: Array<{ type: string; [k: string]: unknown }>) {
  const pins = readRunPins(run.pins);
  if (!pins || run.config.provider !== 'manual') return;
  const turns = scriptFromTrace(trace.map(({ type, ...data }) => ({ type, data })));
  await db.run.update({ where: { id: run.id }, data: { pins: { ...pins, turns } as object } });
}

export type { ClaimedRun } from './run-queue';

export type ExecuteContext = {
  workerId: string;
  /** aborted on cancel, worker stop, or when the worker lost the run (the reason says which) */
  signal: AbortSignal;
  /** this run's execution slot: given back while the run waits for a person */
  slot: RunSlot;
  inputTimeoutMs: number;
  /** called while the run waits for input (true) and when it resumes (false) */
  onWaiting?: (waiting: boolean) => void;
};

function agentToolHost(skills: LoadedSkill[], manager: ReturnType<typeof createToolManager>, scrubber: SecretScrubber): AgentToolHost {
  return {
    async listTools() {
      const tools: AgentTool[] = [];
      for (const summary of manager.listVisibleTools()) {
        const manifest = skills.find((s) => s.manifest.name === summary.skill)?.manifest.tools.find((t) => t.name === summary.name);
        if (manifest) tools.push({ ...manifest, skill: summary.skill });
      }
      return tools;
    },
    whyUnavailable(ref) {
      try {
        return lockedToolMessage(manager.plan(ref));
      } catch {
        return null; // no such tool among the run's skills: the agent's own "not available" says it
      }
    },
    // a tool's result or error reaches the agent code (and so the model) with the run's secrets redacted
    invoke: (ref, args) => scrubber.scrubbed(manager.invoke(ref, args)),
  };
}

/** how often a run waiting for a turn looks for a stored one whose notice it missed */
const TURN_POLL_MS = 1_000;

/** Waits for the person's next turn without holding a slot, up to the input deadline. */
function waitForTurn(db: Db, run: ClaimedRun, ctx: ExecuteContext, log: RunEventLog, turnNumber: number) {
  const deadline = Date.now() + ctx.inputTimeoutMs;
  log.append('awaiting-input', { turnNumber, deadline: new Date(deadline).toISOString(), timestamp: Date.now() });
  ctx.slot.release();
  ctx.onWaiting?.(true);
  return new Promise<ManualTurn>((resolve, reject) => {
    let settled = false;
    let looking = false;
    let again = false;
    const done = () => {
      settled = true;
      off();
      clearTimeout(timer);
      clearInterval(poll);
      ctx.signal.removeEventListener('abort', onAbort);
      ctx.onWaiting?.(false);
    };
    // turns are stored (run-turns.ts): a notice or the poll makes it look; one look at a time
    const look = async () => {
      if (looking) return void (again = true);
      looking = true;
      try {
        do {
          again = false;
          if (settled) return;
          const turn = await takeRunTurn(db, run.id);
          if (turn === undefined || settled) continue;
          done();
          // the run executes again: it needs a slot (and waits for one) before going on
          ctx.slot.acquire(ctx.signal).then(() => resolve(turn), reject);
          return;
        } while (again);
      } catch (err) {
        runsLog.warn('reading a stored turn failed; trying again', { runId: run.id, ...errorContext(err) });
      } finally {
        looking = false;
      }
    };
    const off = runEventBus().onControl(run.id, (control) => control.kind === 'turn' && void look());
    const poll = setInterval(() => void look(), TURN_POLL_MS);
    const timer = setTimeout(() => {
      done();
      reject(
        new RunError('run/input-timeout', `No turn arrived within ${Math.round(ctx.inputTimeoutMs / 1000)} s (SKILLYARD_RUN_INPUT_TIMEOUT_SECONDS); the run stopped waiting.`),
      );
    }, ctx.inputTimeoutMs);
    const onAbort = () => {
      done();
      reject(ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error('cancelled'));
    };
    if (ctx.signal.aborted) return onAbort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    void look();
  });
}

async function providerConfig(db: Db, run: ClaimedRun, ctx: ExecuteContext, log: RunEventLog): Promise<ProviderConfig> {
  const { config } = run;
  if (config.provider === 'scripted') return { provider: 'scripted', turns: config.script ?? [] };
  if (config.provider === 'manual') {
    return { provider: 'manual', nextTurn: ({ turnNumber }) => waitForTurn(db, run, ctx, log, turnNumber) };
  }
  // the user's own key, for their run only, at the provider's own API
  const own = await userModelKey(db, run.userId, config.provider);
  const server = modelConfig(config.provider);
  if (own)
    return {
      provider: config.provider,
      model: config.model || server?.model || (config.provider === 'openai' ? 'gpt-4o-mini' : 'claude-sonnet-4-5'),
      apiKey: own,
      baseUrl: undefined,
    };
  if (!server) throw new Error(`the ${config.provider} provider is not configured on this server`);
  return { provider: config.provider, model: config.model || server.model, apiKey: server.apiKey, baseUrl: server.baseUrl };
}

/** aborted by a draining worker that hands the run back (run-worker.ts) */
export const HAND_BACK = 'run/worker-stopped';
const handedBack = (signal: AbortSignal) => signal.aborted && signal.reason instanceof RunError && signal.reason.code === HAND_BACK;

const describe = (err: unknown): RunFailure => {
  const code = (err as { code?: unknown } | null)?.code;
  return { code: typeof code === 'string' ? code : 'run/failed', message: err instanceof Error ? err.message : String(err) };
};

export async function executeRun(server: RunServer, run: ClaimedRun, ctx: ExecuteContext): Promise<void> {
  const { db } = server;
  // the run stops when the worker aborts it or when its log cannot store an event
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(ctx.signal.reason);
  if (ctx.signal.aborted) controller.abort(ctx.signal.reason);
  ctx.signal.addEventListener('abort', onOuterAbort, { once: true });
  // every secret handed to this run is redacted from its events, result and error
  const scrubber = createSecretScrubber();
  const log = await openRunEventLog(db, run.id, {
    onFailure: (f) => controller.abort(new RunError(f.code as RunError['code'], f.message)),
    scrub: scrubber.scrub,
  });
  const runCtx: ExecuteContext = { ...ctx, signal: controller.signal };
  const outcome: RunOutcome = { status: 'failed', result: null, error: null };
  let why: { rule: string; reason: string; failedCalls: number } | null = null;
  try {
    const skills = await loadPinnedSkills(db, run);
    const runtime = await server.runtimeFor(
      { userId: run.userId, queueKey: run.principal },
      { onObject: (component) => log.append('object', { component, timestamp: Date.now() }) },
    );
    const manager = createToolManager({
      skills,
      ...learnRunSecrets(runtime, scrubber),
      // the kernel checks the run's allowed-tools too, not only the agent's policy
      allowedTools: run.config.allowedTools || null,
    });
    const model = await providerConfig(db, run, runCtx, log);
    if ('apiKey' in model) scrubber.add(model.apiKey);
    const agent = await runAgent({
      runId: run.id,
      task: run.config.task,
      provider: createProvider(model),
      tools: agentToolHost(skills, manager, scrubber),
      sandbox: server.sandbox,
      // the run's code and its tool calls take its owner's (or address's) share of the sandbox
      principal: run.principal,
      // a stranger's code never takes the workers kept free of loops (lib/sandbox/confinement.ts)
      confineCode: isAnonymousKey(run.principal),
      allowedTools: run.config.allowedTools || null,
      maxTurns: run.config.maxTurns,
      maxSteps: run.config.maxSteps,
      signal: controller.signal,
      onEvent: ({ type, ...data }) => log.append(type, data),
    });
    // the outcome rules (lib/agent/run-outcome.ts): no ctx.finish after failed code is not a success
    const decided = decideRunOutcome({ agentStatus: agent.status, finished: agent.finished, result: agent.result, error: agent.error, events: agent.trace });
    why = { rule: decided.rule, reason: decided.reason, failedCalls: decided.failedCalls };
    noteRunCalls(db, run, skills, agent.trace as unknown as Array<{ type: string; tool?: unknown; via?: unknown }>);
    await pinManualTurns(db, run, agent.trace as unknown as Array<{ type: string }>).catch((err) =>
      runsLog.warn('storing the manual turns with the pins failed', { runId: run.id, ...errorContext(err) }),
    );
    outcome.status = decided.status;
    outcome.result = agent.result ?? null;
    outcome.error = decided.error;
  } catch (err) {
    outcome.error = describe(err);
    // a run handed back by a draining worker did not fail: its next attempt goes on
    if (!handedBack(ctx.signal)) log.append('agent-error', { error: outcome.error, timestamp: Date.now() });
  } finally {
    ctx.signal.removeEventListener('abort', onOuterAbort);
  }
  // an event the log could not store fails the run, whatever the agent said
  const logFailure = log.failure();
  if (logFailure && outcome.status !== 'failed') {
    if (outcome.status === 'succeeded') log.append('agent-error', { error: logFailure, timestamp: Date.now() });
    Object.assign(outcome, { status: 'failed', result: null, error: logFailure });
  } else if (logFailure && outcome.error?.code !== logFailure.code) {
    outcome.error = logFailure;
  }
  if (outcome.result !== null) {
    try {
      outcome.result = toStorableJson(outcome.result, 'the run result');
    } catch (err) {
      Object.assign(outcome, { status: 'failed', result: null, error: describe(err) });
      log.append('agent-error', { error: outcome.error, timestamp: Date.now() });
    }
  }
  if (handedBack(ctx.signal)) {
    // the draining worker gives the run back (or fails it): no end is written here
    await log.flush();
    return;
  }
  outcome.result = scrubber.scrub(outcome.result);
  outcome.error = scrubber.scrub(outcome.error);
  // the reason holds only while the status is the one it explains (a log failure overrides it)
  const reason = why && OUTCOME_RULES.some((r) => r.rule === why.rule && r.status === outcome.status) ? why : null;
  log.append('run-end', { status: outcome.status, ...(outcome.error ? { error: outcome.error } : {}), ...reason, timestamp: Date.now() });
  await log.flush();
  if (log.stopped() && log.failure()?.code === 'run/lock-lost') {
    runsLog.warn('run taken over by another worker', { runId: run.id, workerId: ctx.workerId });
    return;
  }
  const held = await finishClaimedRun(db, run.id, ctx.workerId, outcome).catch(async (err) => {
    // the update itself was refused: record a failure rather than leave the run running
    runsLog.error('final update failed', { runId: run.id, workerId: ctx.workerId, ...errorContext(err) });
    return finishClaimedRun(db, run.id, ctx.workerId, {
      status: 'failed',
      result: null,
      error: { code: 'run/unstorable', message: 'The run ended but its outcome could not be stored.' },
    });
  });
  if (!held) runsLog.warn('final update skipped: the run is not ours any more', { runId: run.id, workerId: ctx.workerId, status: outcome.status, reason: 'lock-lost' });
}
