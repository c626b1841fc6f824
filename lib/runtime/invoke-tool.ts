// The pipeline every invocation takes, from outside or from a tool (SPEC section 3):
// resolve ref → visibility → allowed-tools → token gate → params → onion [host middleware,
// skill middleware, handler] → returns.

import { checkAllowedTools } from './allowed-tools';
import { RuntimeError, toRuntimeError } from './errors';
import { namesOf, refreshExpiringHeld, type Frame, type KernelState, type Origin } from './kernel-state';
import { createContext, runOnion, type Layer } from './pipeline';
import { runHandler } from './run-handler';
import { skillMiddleware } from './skill-middleware';
import { checkTokenGate, tokenGateError } from './tokens';
import { validateParams, validateReturns } from './validate-io';

export async function invokeTool(k: KernelState, origin: Origin, ref: string, args: unknown): Promise<unknown> {
  const depth = origin ? origin.depth + 1 : 0;
  const tree = origin ? origin.tree : { calls: 0 };
  if (depth > k.maxDepth) throw new RuntimeError('runtime/depth-exceeded', `tool calls nest deeper than ${k.maxDepth} (calling '${ref}')`);
  if (++tree.calls > k.maxCalls) throw new RuntimeError('runtime/too-many-calls', `more than ${k.maxCalls} tool calls in one invocation`);

  // 1. resolve
  const entry = k.index.resolve(ref, origin?.skill ?? null);
  const { skill, tool } = entry;
  // 2. visibility
  if (tool.visibility === 'hidden' && origin?.skill !== skill) {
    throw new RuntimeError('tool/hidden', `tool '${entry.ref}' is hidden: only tools of skill '${skill.manifest.name}' can invoke it`);
  }
  // 3. allowed-tools: the outside caller's spec, or the calling skill's own (calls within one skill are free)
  if (origin?.skill !== skill) {
    const spec = origin ? (k.skillSpecs.get(origin.skill) ?? null) : k.outsideSpec;
    const decision = checkAllowedTools(spec, namesOf(entry), args);
    if (!decision.allowed) {
      const who = origin ? `skill '${origin.skill.manifest.name}'` : 'this caller';
      throw new RuntimeError('tool/not-allowed', `${who} may not invoke '${entry.ref}': ${decision.reason}`);
    }
  }
  // 4. token gate (on fresh tokens: an OAuth connection that expired during a long run is refreshed)
  if (Object.keys(tool.inputTokens).length) await refreshExpiringHeld(k);
  const gate = checkTokenGate(tool, k.held, undefined, skill.scope);
  if (!gate.ok) throw tokenGateError(entry.ref, gate.missing);
  // 5. params
  const params = validateParams(k, entry, args);

  const frame: Frame = { entry, depth, tree };
  const onEvent = k.opts.onEvent;
  const started = Date.now();
  onEvent?.({ type: 'tool-start', skill: skill.manifest.name, tool: tool.name, depth, timestamp: started });
  try {
    const ctx = createContext({
      args: params,
      skill: { name: skill.manifest.name, format: skill.manifest.format },
      tool: { name: tool.name, role: tool.role },
      caller: { id: k.opts.caller.id, kind: k.opts.caller.kind },
      tokens: gate.granted,
      depth,
      invoke: (r, a) => k.invoke({ skill, depth, tree }, r, a),
    });
    // 6. the onion
    const layers: Layer[] = [
      ...(k.opts.middleware ?? []).map((m) => ({ name: m.name, args: m.args, fn: m.fn })),
      ...skillMiddleware(k, entry, frame, ctx),
      {
        name: tool.name,
        args: params,
        fn: (lctx, a) => runHandler(k, { entry, frame, lctx, args: a, tokens: gate.granted, ctxArgs: params, isMiddleware: false }),
      },
    ];
    const result = await runOnion(ctx, layers);
    // 7. returns
    validateReturns(k, entry, result);
    onEvent?.({ type: 'tool-end', skill: skill.manifest.name, tool: tool.name, depth, timestamp: Date.now(), ms: Date.now() - started, ok: true });
    return result;
  } catch (err) {
    const e = toRuntimeError(err, 'tool/failed');
    onEvent?.({ type: 'tool-end', skill: skill.manifest.name, tool: tool.name, depth, timestamp: Date.now(), ms: Date.now() - started, ok: false, code: e.code });
    throw e;
  }
}
