// The agent policy: which tools the model may reach (discovery), the one `invoke` tool
// (agent code in a sandbox, bare tool names only), the lifecycle hook (trace events,
// limits, structured returns, persistent mode) and the call into the LLM loop.

import { randomUUID } from 'node:crypto';
import { log, serializeError } from '../log';
import type { HostCallHandler } from '../sandbox';
import { checkToolCall } from './allowed-tools';
import { runAgentCode } from './agent-code';
import { DISCOVERY_TOOLS, resolveVisibleTools, skillDescribe, skillList } from './discovery';
import { sleep } from './providers/http';
import { AgentError, describeError, isAbortError } from './errors';
import { buildInvokeTool, buildSystemPrompt, returnsReminder } from './prompt';
import { runProviderLoop } from './provider-loop';
import type { ModelProvider, Usage } from './providers/types';
import { compileReturns, type ReturnsValidator } from './returns';
import type { AgentEvent, Directive, HookEvent, InvokeOutcome, RunAgentOptions, RunAgentResult } from './types';

export const BARE_TOOL_NAME = /^[a-z0-9][a-z0-9-]*$/;
export const DEFAULT_MAX_TURNS = 30;
export const DEFAULT_MAX_STEPS = 30;
export const PERSISTENT_BACKOFF_CAP_MS = 30_000;

type Emit = (event: Record<string, unknown> & { type: AgentEvent['type'] }) => void;

export async function runAgent(opts: RunAgentOptions): Promise<RunAgentResult> {
  const runId = opts.runId ?? randomUUID();
  const provider = opts.provider;
  const trace: AgentEvent[] = [];
  let seq = 0;
  const emit: Emit = (fields) => {
    const event = { timestamp: Date.now(), seq: ++seq, provider: provider.name, runId, ...fields } as AgentEvent;
    trace.push(event);
    try {
      opts.onEvent?.(event);
    } catch (err) {
      // a failing listener must not change the run, but it must not go unseen either
      log.error('agent event listener threw', { component: 'agent', runId, type: event.type, err: serializeError(err) });
    }
  };

  const persistent = opts.persistent === true;
  const maxSteps = opts.maxSteps ?? DEFAULT_MAX_STEPS;
  const maxTurns = opts.maxTurns ?? (persistent ? Infinity : DEFAULT_MAX_TURNS);
  const backoffBase = opts.backoff?.baseMs ?? 1_000;
  const backoffCap = Math.min(opts.backoff?.capMs ?? PERSISTENT_BACKOFF_CAP_MS, PERSISTENT_BACKOFF_CAP_MS);

  // One controller for the whole run: cancel from outside, or a failure inside, stops
  // the model request and the sandbox job alike.
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(opts.signal?.reason);
  if (opts.signal?.aborted) controller.abort(opts.signal.reason);
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const signal = controller.signal;

  let memory: Record<string, unknown> = { ...(opts.memory ?? {}) };
  let steps = 0;
  let turns = 0;
  let stepsExhausted = false;
  let finished = false;
  let finishValue: unknown = undefined;
  let lastText = '';
  let mode: RunAgentResult['mode'] = 'discovery';
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  // tokens of the current turn's model requests (retries included), when the provider reports them
  let turnUsage: Usage | null = null;

  const result = (status: RunAgentResult['status'], value: unknown, error: RunAgentResult['error']): RunAgentResult => ({
    status,
    result: value,
    finished,
    text: lastText,
    error,
    turns,
    steps,
    memory,
    provider: provider.name,
    model: provider.model,
    mode,
    usage,
    trace,
  });

  try {
    if (persistent && opts.returns) throw new AgentError('agent/config', 'persistent mode is incompatible with returns');
    if (!(maxSteps >= 0) || !(maxTurns >= 1)) throw new AgentError('agent/config', 'maxTurns must be >= 1 and maxSteps >= 0');
    const validateReturns: ReturnsValidator | null = opts.returns ? compileReturns(opts.returns) : null;

    const listVisible = async () =>
      resolveVisibleTools(await opts.tools.listTools(), {
        allowedTools: opts.allowedTools,
        skillName: opts.skillName,
        excludeTools: opts.excludeTools,
      });
    let visible = await listVisible();
    mode = visible.mode;
    let visibleByName = new Map(visible.visible.map((t) => [t.name, t]));
    // A tool can become visible during the run (another tool minted the token it needs),
    // so a name not seen yet is looked up once more before it is refused.
    const refreshVisible = async () => {
      visible = await listVisible();
      visibleByName = new Map(visible.visible.map((t) => [t.name, t]));
    };

    emit({
      type: 'agent-start',
      name: opts.name ?? null,
      model: provider.model,
      mode,
      tools: visible.inlined.map((t) => t.name),
      maxTurns,
      maxSteps,
      persistent,
      returns: !!opts.returns,
    });

    // ---- host side of agent code: ctx.invoke / ctx.finish / ctx.next ----
    const hostCalls =
      (callId: string, turnNumber: number): HostCallHandler =>
      async (method, args) => {
        if (signal.aborted) throw new AgentError('agent/cancelled', 'run cancelled');
        if (method === 'finish') {
          const value = args[0] ?? null;
          const problem = validateReturns?.(value);
          if (problem) throw new AgentError('agent/returns-invalid', `ctx.finish: the result does not match the returns schema: ${problem}`);
          finished = true;
          finishValue = value;
          return true;
        }
        if (method === 'next') {
          if (!opts.tools.next) throw new AgentError('agent/no-middleware', 'ctx.next() works only when the agent serves a middleware tool');
          return opts.tools.next();
        }
        if (method !== 'invoke') throw new AgentError('agent/tool-unavailable', `unknown host method "${method}"`);
        const [ref, toolArgs = null] = args;
        if (typeof ref !== 'string' || !BARE_TOOL_NAME.test(ref)) {
          throw new AgentError(
            'agent/ref-refused',
            `ctx.invoke refused ${JSON.stringify(ref)}: agent code may call only bare tool names matching ^[a-z0-9][a-z0-9-]*$ (no URIs, no paths)`,
          );
        }
        const isDiscoveryTool = mode === 'discovery' && (DISCOVERY_TOOLS as readonly string[]).includes(ref);
        if (!isDiscoveryTool) {
          let target = visibleByName.get(ref);
          if (!target) {
            await refreshVisible();
            target = visibleByName.get(ref);
          }
          if (!target) {
            // a token-gated tool the caller lacks the token for: say what unlocks it
            const locked = opts.tools.whyUnavailable?.(ref);
            if (locked) {
              // traced as a refused call of that tool, so the run page shows the lock on it
              emit({ type: 'tool-call', turnNumber, callId, tool: ref, args: toolArgs, via: 'code' });
              emit({ type: 'tool-error', turnNumber, callId, tool: ref, error: { code: 'token/missing', message: locked }, via: 'code', durationMs: 0 });
              throw new AgentError('token/missing', locked);
            }
            throw new AgentError('agent/tool-unavailable', `tool "${ref}" is not available to this agent` + (mode === 'discovery' ? ' (see ctx.invoke("skill-list"))' : ''));
          }
          const reason = checkToolCall(visible.spec, ref, toolArgs, target.skill);
          if (reason) throw new AgentError('agent/tool-unavailable', `tool "${ref}": ${reason}`);
        }
        const started = Date.now();
        emit({ type: 'tool-call', turnNumber, callId, tool: ref, args: toolArgs, via: 'code' });
        try {
          const value =
            ref === 'skill-list' && isDiscoveryTool
              ? skillList(visible, toolArgs)
              : ref === 'skill-describe' && isDiscoveryTool
                ? skillDescribe(visible, toolArgs)
                : await opts.tools.invoke(ref, toolArgs, { signal });
          emit({ type: 'tool-result', turnNumber, callId, tool: ref, result: value ?? null, via: 'code', durationMs: Date.now() - started });
          return value ?? null;
        } catch (err) {
          emit({ type: 'tool-error', turnNumber, callId, tool: ref, error: describeError(err), via: 'code', durationMs: Date.now() - started });
          throw err;
        }
      };

    // ---- the invoke callback (one model tool call) ----
    const callStarted = new Map<string, number>();
    const invoke = async (code: string, call: { id: string; turnNumber: number }): Promise<InvokeOutcome> => {
      if (steps >= maxSteps) {
        stepsExhausted = true;
        return { ok: false, error: { code: 'agent/max-steps', message: `step limit reached: maxSteps is ${maxSteps} invoke calls` }, logs: [] };
      }
      steps++;
      const finishedBefore = finished;
      const run = await runAgentCode(opts.sandbox, {
        key: `agent:${runId}`,
        ...(opts.principal ? { principal: opts.principal } : {}),
        ...(opts.confineCode ? { confined: true } : {}),
        code,
        memory,
        limits: opts.sandboxLimits,
        signal,
        onHostCall: hostCalls(call.id, call.turnNumber),
      });
      if (run.memory) memory = run.memory;
      if (run.outcome.ok && finished && !finishedBefore) run.outcome.finished = true;
      return run.outcome;
    };

    // ---- the lifecycle hook: trace + directives ----
    const hook = async (e: HookEvent): Promise<Directive> => {
      if (e.type === 'tool-call') {
        const d = (await opts.hooks?.(e)) ?? undefined;
        callStarted.set(e.id, Date.now());
        const denied = d && 'deny' in d ? d.deny : undefined;
        emit({ type: 'tool-call', turnNumber: e.turnNumber, callId: e.id, tool: e.tool, args: e.args, via: 'model', ...(denied !== undefined ? { denied } : {}) });
        return d;
      }
      if (e.type === 'turn-start') {
        turns = e.turnNumber;
        turnUsage = null;
        emit({ type: 'turn-start', turnNumber: e.turnNumber });
      } else if (e.type === 'message' || e.type === 'reasoning') {
        emit({ type: e.type, turnNumber: e.turnNumber, text: e.text, delta: e.delta });
      } else if (e.type === 'tool-result') {
        const durationMs = Date.now() - (callStarted.get(e.id) ?? Date.now());
        const o = e.result;
        const logs = o.logs.length ? { logs: o.logs } : {};
        if (o.ok) emit({ type: 'tool-result', turnNumber: e.turnNumber, callId: e.id, tool: e.tool, result: o.value, via: 'model', durationMs, ...logs });
        else emit({ type: 'tool-error', turnNumber: e.turnNumber, callId: e.id, tool: e.tool, error: o.error, via: 'model', durationMs, ...logs });
      } else if (e.type === 'retry') {
        const { type: _t, turnNumber, ...info } = e;
        emit({ type: 'retry', turnNumber, scope: 'request', ...info });
      } else if (e.type === 'error') {
        emit({ type: 'error', turnNumber: e.turnNumber, error: e.error, attempt: e.attempt });
        const d = (await opts.hooks?.(e)) ?? undefined;
        if (d) return d;
        if (!persistent) return undefined;
        const delayMs = Math.min(backoffCap, backoffBase * 2 ** (e.attempt - 1));
        emit({ type: 'retry', turnNumber: e.turnNumber, scope: 'turn', attempt: e.attempt, delayMs, reason: e.error.message, status: null, partial: false });
        await waitOrAbort(delayMs, signal);
        return { continue: true };
      } else if (e.type === 'turn-end') {
        lastText = e.result;
        if (e.result) emit({ type: 'agent-message', turnNumber: e.turnNumber, text: e.result });
        const directive = await turnEndDirective(e);
        const reported = turnUsage ? { usage: turnUsage } : {};
        emit({ type: 'turn-end', turnNumber: e.turnNumber, text: e.result, toolCalls: e.toolCalls, finished, directive: directive ?? null, ...reported });
        return directive;
      }
      return (await opts.hooks?.(e)) ?? undefined;
    };

    const turnEndDirective = async (e: Extract<HookEvent, { type: 'turn-end' }>): Promise<Directive> => {
      if (stepsExhausted) throw new AgentError('agent/max-steps', `the agent used all ${maxSteps} steps (invoke calls) without finishing`);
      let d: Directive = (await opts.hooks?.(e)) ?? undefined;
      if (!d || !('stop' in d || 'continue' in d)) {
        if (persistent) d = { continue: true };
        else if (finished) d = { stop: true, result: finishValue };
        else if (e.toolCalls > 0) d = { continue: true };
        else if (opts.returns) d = { continue: true, message: returnsReminder(opts.returns) };
        else d = { stop: true, result: e.result };
      }
      if ('continue' in d && e.turnNumber >= maxTurns) {
        throw new AgentError('agent/max-turns', `the agent reached maxTurns (${maxTurns}) without finishing`);
      }
      return d;
    };

    const counted: ModelProvider = {
      name: provider.name,
      model: provider.model,
      async complete(req) {
        const turn = await provider.complete(req);
        if (turn.usage) {
          usage.inputTokens += turn.usage.inputTokens;
          usage.outputTokens += turn.usage.outputTokens;
          turnUsage = { inputTokens: (turnUsage?.inputTokens ?? 0) + turn.usage.inputTokens, outputTokens: (turnUsage?.outputTokens ?? 0) + turn.usage.outputTokens };
        }
        return turn;
      },
    };

    const out = await runProviderLoop({
      prompt: buildSystemPrompt({ prompt: opts.prompt, tools: visible, returns: opts.returns, maxSteps }),
      userMessage: opts.task,
      model: counted,
      invokeTool: buildInvokeTool(visible),
      invoke,
      hook,
      signal,
      maxToolResultChars: opts.maxToolResultChars,
    });
    emit({ type: 'agent-complete', result: out.result ?? null, finished, turns, steps });
    return result('completed', out.result ?? null, null);
  } catch (err) {
    // the caller may stop the run because of a failure of its own (an abort reason with a
    // code, e.g. its trace could not be stored): that is a failure, not a cancel
    const reason = opts.signal?.aborted ? opts.signal.reason : undefined;
    const stoppedByFailure = reason instanceof Error && typeof (reason as { code?: unknown }).code === 'string' && !isAbortError(reason);
    if (stoppedByFailure) {
      const error = describeError(reason);
      emit({ type: 'agent-error', error, turns, steps });
      return result('failed', null, error);
    }
    const cancelled = signal.aborted || (err instanceof AgentError && err.code === 'agent/cancelled');
    const error = cancelled ? { code: 'agent/cancelled', message: 'run cancelled' } : describeError(err);
    emit({ type: 'agent-error', error, turns, steps });
    return result(cancelled ? 'cancelled' : 'failed', null, error);
  } finally {
    opts.signal?.removeEventListener('abort', onOuterAbort);
    // stop whatever is still in flight (a sandbox job left running by a cancel race)
    if (!controller.signal.aborted) controller.abort();
  }
}

function waitOrAbort(ms: number, signal: AbortSignal): Promise<void> {
  return sleep(ms, signal, () => new AgentError('agent/cancelled', 'run cancelled'));
}
