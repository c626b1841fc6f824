// A JS/TS handler in the sandbox: compile once per key, build the guest payload and the
// job (warm isolates are keyed by caller, full skill name, tool and code), answer the
// guest's host calls, and turn the guest's envelope back into a value or a RuntimeError.

import type { SandboxJob } from '../sandbox';
import type { CapabilityScope } from './capabilities/types';
import { sourceHash } from './compile';
import { RuntimeError, isRuntimeErrorCode } from './errors';
import { GUEST_ENTRY, GUEST_PRELUDE, type GuestEnvelope, type GuestPayload } from './guest';
import { answerHostCall } from './host-calls';
import { hostCallFailure } from './host-call-failure';
import { staticsOf, type KernelState } from './kernel-state';
import { checkRye, type HandlerCall } from './run-handler';
import { skillKey } from './skill-key';

function compiledModule(k: KernelState, cacheKey: string, compile: () => Promise<string>): Promise<string> {
  let mod = k.modules.get(cacheKey);
  if (!mod) {
    mod = compile();
    mod.catch(() => k.modules.delete(cacheKey));
    k.modules.set(cacheKey, mod);
  }
  return mod;
}

export async function runSandboxed(k: KernelState, call: HandlerCall, cacheKey: string, compile: () => Promise<string>): Promise<unknown> {
  const { entry, frame, lctx } = call;
  const { skill, tool } = entry;
  const source = await compiledModule(k, cacheKey, compile);
  const { convention, granted, hostMethods } = staticsOf(k, entry);
  const { caller } = k.opts;
  const payload: GuestPayload & { ctxArgs: unknown } = {
    convention,
    skill: skill.manifest.name,
    tool: tool.name,
    sourceName: tool.sourceName,
    args: call.args ?? null,
    ctxArgs: call.ctxArgs ?? null,
    tokens: call.tokens,
    granted,
    declared: tool.capabilities ?? [],
    workDir: k.opts.workDir ?? '/workspace',
    projectPath: k.opts.workDir ?? '/workspace',
    hasNext: call.isMiddleware,
  };
  const key = skillKey(skill);
  const job: SandboxJob = {
    // Warm isolates are per caller, skill (full @scope/name), tool and code: state never leaks across callers or scopes.
    key: `${caller.kind}:${caller.id}|${key}/${tool.name}|${sourceHash(source)}`,
    ...(caller.queueKey ? { principal: caller.queueKey } : {}),
    source,
    entry: GUEST_ENTRY,
    args: [payload],
    hostMethods,
    prelude: GUEST_PRELUDE,
    limits: { ...k.limits, ...(tool.timeoutMs ? { wallMs: tool.timeoutMs } : {}) },
  };
  const scope: CapabilityScope = {
    callerId: caller.id,
    callerKind: caller.kind,
    skill: key,
    tool: tool.name,
    ...(skill.identity ? { skillIdentity: skill.identity } : {}),
  };
  const origin = { skill, depth: frame.depth, tree: frame.tree };
  const onHostCall = async (method: string, callArgs: unknown[]) => {
    try {
      const refusal = k.opts.onHostCall?.({ skill: key, tool: tool.name, method, args: callArgs });
      if (refusal) throw refusal;
      return await answerHostCall(k, method, callArgs, { entry, granted, scope, origin, lctx, convention });
    } catch (err) {
      return { __skillyardError: hostCallFailure(err, { method, skill: key, tool: tool.name }) };
    }
  };
  const out = await k.opts.sandbox.run(job, onHostCall);
  if (!out.ok) {
    const code = isRuntimeErrorCode(out.error.code) ? out.error.code : 'tool/failed';
    // back-pressure from the sandbox (queue-full) says when to retry: the API answers Retry-After
    const retry = out.error.retryAfterMs === undefined ? undefined : { retryAfterMs: out.error.retryAfterMs };
    throw new RuntimeError(code, `'${entry.ref}': ${out.error.message}`, retry);
  }
  const env = (out.value ?? {}) as GuestEnvelope;
  if ('e' in env) {
    const code = env.e.code && isRuntimeErrorCode(env.e.code) ? env.e.code : 'tool/failed';
    // Errors raised by the kernel for a nested call keep their own message; the tool's own throws name the tool.
    throw new RuntimeError(code, code === 'tool/failed' ? `'${entry.ref}' failed: ${env.e.message}` : env.e.message);
  }
  const value = env.f && env.v === undefined ? env.fv : env.v;
  checkRye(entry, convention, value);
  if (env.f) lctx.manager.finish(value);
  return value;
}
