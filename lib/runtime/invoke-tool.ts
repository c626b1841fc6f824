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
import { sameScopeAs } from './tool-index';
import { skillKey } from './skill-key';

export async function invokeTool(k: KernelState, origin: Origin, ref: string, args: unknown): Promise<unknown> {
  const depth = origin ? origin.depth + 1 : 0;
  const tree = origin ? origin.tree : { calls: 0 };
  if (depth > k.maxDepth) throw new RuntimeError('runtime/depth-exceeded', `tool calls nest deeper than ${k.maxDepth} (calling '${ref}')`);
  if (++tree.calls > k.maxCalls) throw new RuntimeError('runtime/too-many-calls', `more than ${k.maxCalls} tool calls in one invocation`);

  // 1. resolve
  const entry = k.index.resolve(ref, origin?.skill ?? null);
  const { skill, tool } = entry;
  // 1b. scope: a tool may call only tools of its own publisher's scope. Another scope's tool
  // runs with its owner's secrets (`environment` reads a team's secrets for a team's skill)
  // and connections (a team's OAuth tokens are lent to its own scope's tools only), and may
  // hold the caller's data for that skill (storage): handing its result to foreign code
  // would hand all of that over, past the secret scrubber or out through `net`. The
  // outside caller (the person's agent, an MCP client, the API) may call any tool.
  if (origin && !sameScopeAs(origin.skill, skill)) {
    throw new RuntimeError(
      'tool/foreign-scope',
      `skill '${skillKey(origin.skill)}' may not invoke '${skillKey(skill)}/${tool.name}': a tool may call only tools of its own scope (${origin.skill.scope ? `@${origin.skill.scope}` : 'local skills'}), since another publisher's tools run with their owner's secrets and connections`,
    );
  }
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
